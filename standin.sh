#
# The switch between beside another agent (pmdalinux or pmdaproc) and in
# its place, for Install and Remove: sourced after pmdaproc.sh's
# pmdaSetup, in the PMDA directory, with $domain (hostcache's, from
# domain.h) set. use_target names the agent.
#
# Standing in for pmdalinux, pmcd.conf has two entries for the one process:
#   linux      60         pipe binary <dir>/pmdahostcache -d 60 -S linux -U root -B <socket>
#   hostcache  HOSTCACHE  socket unix <socket>
# and standing in for pmdaproc the same with "proc" and domain 3.
# pmcd starts the first and connects to the socket of the second. Each step
# below rewrites one entry with pmdaproc.sh's __pmda_add (the entry of the
# same name and domain replaced, the file kept sorted by domain) and
# signals pmcd once. After every step pmcd has an agent for the target's
# domain and for hostcache's, and every name keeps its PMID and
# descriptor: a pmlogger checks its metrics whenever pmcd adds an agent,
# and exits if one is missing or has changed.
#

# use_target sets what the functions below work on: the agent's pmcd.conf
# name, its domain, the file that keeps its pmcd.conf line, and the PMNS
# root of its names (for the check after the switch).
use_target()
{
    target=$1
    case "$target" in
    linux) target_domain=60; target_root=kernel ;;
    proc) target_domain=3; target_root=proc ;;
    esac
    saved=standin.$target
}

# recorded_target prints the agent a standin.<name> file says hostcache
# stands in for, or nothing.
recorded_target()
{
    for __t in linux proc; do
        if [ -f standin.$__t ]; then
            echo $__t
            return
        fi
    done
}

# The stand-in's socket for hostcache's domain. pmcd connects to it as
# user pcp and unlinks it when it drops the agent: in this directory,
# which only root may write, it can do the one and not the other.
socket="$pmda_dir/hostcache.socket"

# target_line prints pmcd.conf's entry for the target's domain.
target_line()
{
    $PCP_AWK_PROG -v dom="$target_domain" '/^[ \t]*\[/ { exit } $2 == dom { print; exit }' $PCP_PMCDCONF_PATH
}

# own_line prints pmcd.conf's entry for hostcache's domain.
own_line()
{
    $PCP_AWK_PROG -v dom="$domain" '/^[ \t]*\[/ { exit } $1 == "hostcache" && $2 == dom { print; exit }' $PCP_PMCDCONF_PATH
}

# standing_in says whether pmcd's entry for the target's domain runs the
# agent.
standing_in()
{
    case "`target_line`" in
    *pmdahostcache*) return 0 ;;
    esac
    return 1
}

# beside_now says whether the agent runs beside the target, on its pipe.
beside_now()
{
    standing_in && return 1
    case "`own_line`" in
    *pipe*pmdahostcache*) return 0 ;;
    esac
    return 1
}

# installed_as_shipped says whether the PMNS has the names of the pmns
# beside this script (a newer package or make install may have brought
# others since the last pmdaInstall). The help pmcd's clients read is the
# agent's own, which every start of it brings up to date.
installed_as_shipped()
{
    sed -e "s/HOSTCACHE:/$domain:/" pmns | cmp -s - "$PMNSDIR/hostcache"
}

# enter_standin moves from beside the target to its place: pmcd's entry
# for the target runs the agent, which makes the socket before its handshake on
# the pipe, while the agent beside still answers hostcache's domain; then
# hostcache's entry becomes the socket, and the agent beside, dropped,
# exits.
enter_standin()
{
    echo "Standing in for pmda$target: pmcd's $target entry runs $pmda_name ..."
    # As pmdalinux and pmdaproc, the stand-in keeps running as root: the
    # serial lines' counters are printed only to a reader with
    # CAP_SYS_ADMIN, checked at every read of /proc/tty/driver/serial,
    # and a process's io file only to its owner or root.
    __pmda_add "$target	$target_domain	pipe	binary 		$pmda_dir/$pmda_name -d $target_domain -S $target -U root -B $socket"
    echo "... and answers hostcache's domain $domain on $socket ..."
    __pmda_add "hostcache	$domain	socket	unix $socket"
    if $do_check; then
        $PCP_BINADM_DIR/pmsleep $check_delay
        for __n in hostcache $target_root; do
            $PCP_ECHO_PROG $PCP_ECHO_N "Check $__n metrics have appeared ... ""$PCP_ECHO_C"
            pmprobe -i $__n | __filter $__n
        done
    fi
}

# leave_standin puts the target's saved entry back, with the agent beside
# it; nothing when pmcd's entry for the target's domain is not the agent.
leave_standin()
{
    standing_in || return 0
    if [ ! -f $saved ]; then
        echo "$prog: pmcd.conf's domain $target_domain runs pmdahostcache, and no $saved keeps pmda$target's entry" >&2
        status=1
        exit
    fi
    case "`own_line`" in
    *socket*)
        echo "Back beside pmda$target: hostcache's entry runs $pmda_name ..."
        # The line pmdaInstall writes for a pipe agent.
        __pmda_add "hostcache	$domain	pipe	binary 		$pmda_dir/$pmda_name -d $domain "
        echo "Restoring pmda$target's entry in pmcd.conf ..."
        __pmda_add "`cat $saved`"
        rm -f "$socket"
        ;;
    *)
        # A stand-in of an earlier version: hostcache's names in domain 60
        # (its pmns.linux), no entry of hostcache's own. Its names go with
        # it; the caller installs the agent beside pmdalinux again.
        __dom=$domain
        iam=linux
        domain=60
        pmns_name=hostcache
        pmdaRemove
        echo "Restoring pmdalinux's entry in pmcd.conf ..."
        __pmda_add "`cat $saved`"
        iam=hostcache
        domain=$__dom
        ;;
    esac
}
