#
# The switch between beside the other agents (pmdalinux, pmdaproc) and in
# their place, for Install and Remove: sourced after pmdaproc.sh's
# pmdaSetup, in the PMDA directory, with $domain (hostcache's, from
# domain.h) set.
#
# Standing in for pmdalinux, pmcd.conf has two entries for the one process:
#   linux      60         pipe binary <dir>/pmdahostcache -d 60 -S linux -U root -B <socket>
#   hostcache  HOSTCACHE  socket unix <socket>
# and standing in for pmdaproc the same with "proc" and domain 3.
# Standing in for both, pmdaproc's entry (the lower domain, which pmcd
# starts first) runs the process, and pmdalinux's is a socket too:
#   proc       3          pipe binary <dir>/pmdahostcache -d 3 -S proc -U root -B <socket> -B linux=<linux socket>
#   linux      60         socket unix <linux socket>
#   hostcache  HOSTCACHE  socket unix <socket>
# pmcd starts the pipe and connects to the sockets. Each step below
# rewrites one entry with pmdaproc.sh's __pmda_add (the entry of the same
# name and domain replaced, the file kept sorted by domain) and signals
# pmcd once. After every step pmcd has an agent for every domain, and
# every name keeps its PMID and descriptor: a pmlogger checks its metrics
# whenever pmcd adds an agent, and exits if one is missing or has changed.
#
# Each agent stood in for has its pmcd.conf line saved verbatim in
# standin.<name> beside this script, which also records the choice.
#

# The stand-in's sockets: hostcache's domain's, and pmdalinux's when the
# process stands in for both. pmcd connects to them as user pcp and
# unlinks them when it drops the agent: in this directory, which only
# root may write, it can do the one and not the other.
socket="$pmda_dir/hostcache.socket"
linux_socket="$pmda_dir/linux.socket"

# agent_domain prints the domain of an agent hostcache stands in for.
agent_domain()
{
    case "$1" in
    linux) echo 60 ;;
    proc) echo 3 ;;
    esac
}

# agent_root prints the PMNS root of the agent's names, for the check
# after the switch.
agent_root()
{
    case "$1" in
    linux) echo kernel ;;
    proc) echo proc ;;
    esac
}

# recorded_targets prints the agents standin.<name> files say hostcache
# stands in for, by domain (the pipe's first), or nothing.
recorded_targets()
{
    __out=
    for __t in proc linux; do
        [ -f standin.$__t ] && __out="$__out $__t"
    done
    echo $__out
}

# target_line prints pmcd.conf's entry for an agent's domain.
target_line()
{
    $PCP_AWK_PROG -v dom="`agent_domain $1`" '/^[ \t]*\[/ { exit } $2 == dom { print; exit }' $PCP_PMCDCONF_PATH
}

# own_line prints pmcd.conf's entry for hostcache's domain.
own_line()
{
    $PCP_AWK_PROG -v dom="$domain" '/^[ \t]*\[/ { exit } $1 == "hostcache" && $2 == dom { print; exit }' $PCP_PMCDCONF_PATH
}

# stands_for says whether pmcd's entry for an agent's domain is the
# stand-in: its pipe, or its socket.
stands_for()
{
    case "`target_line $1`" in
    *pmdahostcache* | *"$linux_socket"*) return 0 ;;
    esac
    return 1
}

# standing_in says whether the agent stands in for any other.
standing_in()
{
    stands_for linux || stands_for proc
}

# beside_now says whether the agent runs beside the others, on its pipe.
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

# save_line keeps an agent's pmcd.conf entry in standin.<name>, once.
save_line()
{
    [ -f standin.$1 ] && return 0
    __line=`target_line $1`
    case "$__line" in
    "")
        echo "$prog: pmcd.conf has no entry for domain `agent_domain $1` to stand in for" >&2
        status=1
        exit
        ;;
    *pmdahostcache*)
        echo "$prog: pmcd.conf's domain `agent_domain $1` runs pmdahostcache, and no standin.$1 keeps pmda$1's entry" >&2
        status=1
        exit
        ;;
    esac
    echo "$__line" >standin.$1
}

# enter_standin moves from beside the agents named (by domain, the
# pipe's first) to their place: pmcd's entry for the first runs the
# agent, which makes its sockets before its handshake on the pipe, while
# the agent beside still answers hostcache's domain; then the second's
# entry becomes its socket; then hostcache's, and the agent beside,
# dropped, exits.
enter_standin()
{
    __pipe=$1
    __cmd="$pmda_dir/$pmda_name -d `agent_domain $__pipe` -S $__pipe -U root -B $socket"
    [ $# -gt 1 ] && __cmd="$__cmd -B $2=$linux_socket"
    echo "Standing in for pmda$__pipe: pmcd's $__pipe entry runs $pmda_name ..."
    # As pmdalinux and pmdaproc, the stand-in keeps running as root: the
    # serial lines' counters are printed only to a reader with
    # CAP_SYS_ADMIN, checked at every read of /proc/tty/driver/serial,
    # and a process's io file only to its owner or root.
    __pmda_add "$__pipe	`agent_domain $__pipe`	pipe	binary 		$__cmd"
    if [ $# -gt 1 ]; then
        echo "... and for pmda$2 on $linux_socket ..."
        __pmda_add "$2	`agent_domain $2`	socket	unix $linux_socket"
    fi
    echo "... and answers hostcache's domain $domain on $socket ..."
    __pmda_add "hostcache	$domain	socket	unix $socket"
    if $do_check; then
        $PCP_BINADM_DIR/pmsleep $check_delay
        for __n in hostcache "$@"; do
            [ $__n = hostcache ] || __n=`agent_root $__n`
            $PCP_ECHO_PROG $PCP_ECHO_N "Check $__n metrics have appeared ... ""$PCP_ECHO_C"
            pmprobe -i $__n | __filter $__n
        done
    fi
}

# leave_standin puts back the saved entry of every agent stood in for,
# with the agent beside them: hostcache's own entry first, then the
# socket's agent, then the pipe's, whose restart ends the stand-in.
# Nothing when no entry is the stand-in.
leave_standin()
{
    standing_in || return 0
    for __t in linux proc; do
        if stands_for $__t && [ ! -f standin.$__t ]; then
            echo "$prog: pmcd.conf's domain `agent_domain $__t` runs pmdahostcache, and no standin.$__t keeps pmda$__t's entry" >&2
            status=1
            exit
        fi
    done
    case "`own_line`" in
    *socket*)
        echo "Back beside the other agents: hostcache's entry runs $pmda_name ..."
        # The line pmdaInstall writes for a pipe agent.
        __pmda_add "hostcache	$domain	pipe	binary 		$pmda_dir/$pmda_name -d $domain "
        for __t in linux proc; do
            if stands_for $__t; then
                echo "Restoring pmda$__t's entry in pmcd.conf ..."
                __pmda_add "`cat standin.$__t`"
            fi
        done
        rm -f "$socket" "$linux_socket"
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
        __pmda_add "`cat standin.linux`"
        iam=hostcache
        domain=$__dom
        ;;
    esac
}
