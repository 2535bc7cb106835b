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
# pmcd starts the pipe and connects to the sockets. A move in or out
# rewrites the entries it changes as pmdaproc.sh's __pmda_add would (the
# entry of the same name or domain replaced, the file kept sorted by
# domain) and signals pmcd once. When pmcd next reads a request it has an
# agent for every domain, and every name keeps its PMID and descriptor: a
# pmlogger checks its metrics whenever pmcd adds an agent, and exits if
# one is missing or has changed.
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
    printf '%s\n' "$__line" >standin.$1
}

# capture_help keeps, in standin.<name>.help.{dir,pag} beside this
# script, the help the running pmda<name> answers for the PMIDs of its
# domain that its compiled help lacks: pmdaproc answers its per-process
# metrics' help from its code. Standing in, the agent answers those PMIDs
# from the capture (after the agent's help file, before its own texts),
# so their help stays the same across the switch. The texts come from
# the host's agent at install time; none ships with hostcache. Standing
# in already, the agent is not there to ask, and the capture made before
# stays; so does it when this one fails, with a warning.
capture_help()
{
    stands_for $1 && return 0
    __agent=$1
    __base=standin.$1.help
    __py=
    # pmpython runs the first python3 on $PATH, which may lack PCP's module.
    for __p in "$PCP_BIN_DIR/pmpython" /usr/bin/python3; do
        if "$__p" -c 'import pcp.pmapi' >/dev/null 2>&1; then
            __py=$__p
            break
        fi
    done
    if [ -z "$__py" ]; then
        echo "Warning: no Python with PCP's module to capture pmda$__agent's help" >&2
        return 0
    fi
    if ! __counts=`help_source "$__py" $__agent $tmp/$__base.src 2>$tmp/$__base.err`; then
        echo "Warning: pmda$__agent's help is not captured: `tail -n 1 $tmp/$__base.err`" >&2
        return 0
    fi
    # The domain's PMIDs, the texts written and those newhelp cannot hold.
    set -- $__counts
    if [ "${1:-0}" -eq 0 ]; then
        echo "Warning: pmda$__agent's help is not captured: pmcd has no names in domain `agent_domain $__agent`" >&2
        return 0
    fi
    if [ "$2" -eq 0 ]; then
        forget_help $__agent
        return 0
    fi
    rm -f $__base.new.dir $__base.new.pag
    if ! $PCP_BINADM_DIR/newhelp -o $__base.new $tmp/$__base.src >$tmp/$__base.err 2>&1 ||
        [ ! -f $__base.new.dir ] || [ ! -f $__base.new.pag ]; then
        rm -f $__base.new.dir $__base.new.pag
        echo "Warning: pmda$__agent's help is not captured: newhelp: `head -n 1 $tmp/$__base.err`" >&2
        return 0
    fi
    chmod 0644 $__base.new.dir $__base.new.pag
    mv -f $__base.new.pag $__base.pag
    mv -f $__base.new.dir $__base.dir
    __skipped=
    [ "$3" -gt 0 ] && __skipped=" ($3 left out: newhelp cannot hold them)"
    echo "Captured pmda$__agent's help for $2 PMIDs its help file lacks in $__base.{dir,pag}$__skipped"
}

# forget_help removes an agent's captured help, once pmcd runs the agent
# again: the next switch captures it afresh, from the agent then installed.
forget_help()
{
    rm -f standin.$1.help.dir standin.$1.help.pag standin.$1.help.new.dir standin.$1.help.new.pag
}

# help_source asks pmcd, with PCP's Python module ($1), for the texts the
# running pmda$2 answers for each PMID of its domain that its compiled
# help lacks, and writes them to $3 as newhelp's source: numeric PMIDs,
# and a line holding one dot after every long text (newhelp drops the
# newlines that end a text; hostcache's help.ReadCaptured drops the dot).
# It prints the domain's number of PMIDs, the texts written and those
# left out, which newhelp would change: a one-line text starting with a
# space, a line too long, a line newhelp takes for a comment or an entry.
help_source()
{
    "$1" - `agent_domain $2` "$PCP_PMDAS_DIR/$2/help" "$3" <<'EOF'
import struct
import sys

import cpmapi as c
from pcp import pmapi

DIRECT = 16  # libpcp's PM_TEXT_DIRECT: the agent's own answer, no fallback
MAX_LINE = 126  # newhelp splits a longer line
MAX_ENTRY = 1000  # and cuts an entry past 1024 bytes short
domain, helpbase, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]


def in_help_file():
    try:
        with open(helpbase + ".dir", "rb") as f:
            index = f.read()
        magic, _, n = struct.unpack_from("=III", index)
    except (OSError, struct.error):
        return set()
    if magic != 0x50635068:
        return set()
    n = min(n, len(index) // 12 - 1)
    return {struct.unpack_from("=I", index, 12 * i)[0] for i in range(1, n + 1)}


def domain_pmids(ctx):
    names = []
    ctx.pmTraversePMNS("", names.append)
    try:
        pmids = list(ctx.pmLookupName(names))
    except pmapi.pmErr:
        pmids = []
        for name in names:
            try:
                pmids.append(ctx.pmLookupName(name)[0])
            except pmapi.pmErr:
                pass
    return sorted({p for p in pmids if p != c.PM_ID_NULL and ctx.pmID_domain(p) == domain})


def as_bytes(text):
    return text.encode() if isinstance(text, str) else text


def entry(ident, one, long):
    head = b"@ " + ident.encode() + b" " + one
    body = (long.split(b"\n") if long else []) + [b"."]
    if one[:1].isspace() or b"\n" in one or len(head) > MAX_LINE:
        return None
    if any(len(line) > MAX_LINE or line[:1] in (b"#", b"@") for line in body):
        return None
    text = b"\n".join([head] + body) + b"\n"
    return text if len(text) <= MAX_ENTRY else None


ctx = pmapi.pmContext(c.PM_CONTEXT_HOST, "local:")
pmids = domain_pmids(ctx)
have = in_help_file()
written = left_out = 0
with open(out, "wb") as f:
    for pmid in pmids:
        if pmid in have:
            continue
        try:
            one = as_bytes(ctx.pmLookupText(pmid, c.PM_TEXT_ONELINE | DIRECT))
            long = as_bytes(ctx.pmLookupText(pmid, c.PM_TEXT_HELP | DIRECT))
        except pmapi.pmErr:
            left_out += 1
            continue
        text = entry(ctx.pmIDStr(pmid), one, long)
        if text is None:
            left_out += 1
            continue
        f.write(text)
        written += 1
print(len(pmids), written, left_out)
EOF
}

# A switch rewrites the entries it changes (stage_entry) and signals pmcd
# once (apply_entries). pmcd 6.0.3 drops the agent it is waiting on for an
# answer when a SIGHUP arrives meanwhile, and fails that request with
# PM_ERR_IPC; a pmlogger that gets it while it checks its metrics exits.
# Every SIGHUP that adds an agent has every pmlogger check all its
# metrics at its next fetch, up to an interval later: a second SIGHUP
# could fall into those checks, whenever it comes. One signal a switch
# leaves none to fall into them. On that signal pmcd drops the agents
# whose entries changed, then starts the new ones in domain order: the
# pipe's (the lowest domain of the stand-in's), whose process makes its
# sockets before its handshake, then the sockets'.

# stage_entry adds an entry to those the next apply_entries writes.
stage_entry()
{
    printf '%s\n' "$1" >>$tmp/switch.entries
}

# apply_entries writes the staged entries into pmcd.conf as pmdaproc.sh's
# __pmda_add writes one: an entry of the same name or domain replaced,
# the file's entries sorted by domain, then a blank line and the access
# controls. Then it signals pmcd, once pmcd has been quiet for a quarter
# of a second (5 s of waiting at most), and waits for it.
apply_entries()
{
    [ -s $tmp/switch.entries ] || return 0
    cp $PCP_PMCDCONF_PATH $tmp/pmcd.conf.save
    while IFS= read -r __entry; do
        edit_entry "$__entry"
        $PCP_BINADM_DIR/pmpost "PMDA add: to $PCP_PMCDCONF_PATH: $__entry"
    done <$tmp/switch.entries
    rm -f $tmp/switch.entries
    wait_quiet
    if pminfo -v pmcd.version >/dev/null 2>&1; then
        __sighup_pmcd
    else
        __pmda_restart_pmcd
    fi
    __wait_for_pmcd
    $__pmcd_is_dead && __restore_pmcd
}

# edit_entry puts one entry into pmcd.conf in place of any of its name or
# domain; pmcd.conf's access controls stay after the entries.
edit_entry()
{
    __name=`printf '%s\n' "$1" | $PCP_AWK_PROG '{ print $1 }'`
    __dom=`printf '%s\n' "$1" | $PCP_AWK_PROG '{ print $2 }'`
    echo >$tmp/conf.entries
    echo >$tmp/conf.access
    $PCP_AWK_PROG -v name="$__name" -v dom="$__dom" \
        -v entries=$tmp/conf.entries -v access=$tmp/conf.access '
        NF == 0 { next }
        /^[ \t]*\[[ \t]*access[ \t]*\]/ { in_access = 1 }
        in_access { print >access; next }
        $1 == name || $2 == dom { next }
        { print >entries }' $PCP_PMCDCONF_PATH
    printf '%s\n' "$1" >>$tmp/conf.entries
    (LC_COLLATE=POSIX sort -n -k2 $tmp/conf.entries; echo; cat $tmp/conf.access) >$PCP_PMCDCONF_PATH
    rm -f $tmp/conf.entries $tmp/conf.access
    eval $CHOWN root $PCP_PMCDCONF_PATH
    eval $CHMOD 644 $PCP_PMCDCONF_PATH
}

# wait_quiet returns once pmcd has been quiet for a quarter of a second:
# the requests of a pmlogger checking its metrics come in a burst.
wait_quiet()
{
    __i=0
    __last=`pdus_in`
    while [ $__i -lt 20 ]; do
        $PCP_BINADM_DIR/pmsleep 0.25
        __now=`pdus_in`
        # pdus_in's own pmprobe costs pmcd 6 PDUs.
        [ -n "$__now" ] && [ -n "$__last" ] && [ `expr $__now - $__last` -le 10 ] && break
        __last=$__now
        __i=`expr $__i + 1`
    done
}

# pdus_in prints how many PDUs pmcd has received from its clients.
pdus_in()
{
    pmprobe -v pmcd.pdu_in.total 2>/dev/null | $PCP_AWK_PROG '$2 == 1 { print $3 }'
}

# enter_standin moves from beside the agents named (by domain, the
# pipe's first) to their place, in one signal: pmcd's entry for the first
# runs the agent, which makes its sockets before its handshake on the
# pipe; the second's entry and hostcache's become its sockets; the agent
# beside, dropped, exits.
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
    stage_entry "$__pipe	`agent_domain $__pipe`	pipe	binary 		$__cmd"
    if [ $# -gt 1 ]; then
        echo "... and for pmda$2 on $linux_socket ..."
        stage_entry "$2	`agent_domain $2`	socket	unix $linux_socket"
    fi
    echo "... and answers hostcache's domain $domain on $socket ..."
    stage_entry "hostcache	$domain	socket	unix $socket"
    apply_entries
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
# with the agent beside them, in one signal: pmcd drops the stand-in and
# starts the agents again. Nothing when no entry is the stand-in.
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
        stage_entry "hostcache	$domain	pipe	binary 		$pmda_dir/$pmda_name -d $domain "
        for __t in linux proc; do
            if stands_for $__t; then
                echo "Restoring pmda$__t's entry in pmcd.conf ..."
                stage_entry "`cat standin.$__t`"
            fi
        done
        apply_entries
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
