#!/bin/sh
# The distributed search (mck check --mpi, engine/dist/) under Open MPI's
# mpirun with 2 and 3 ranks (3 oversubscribed on this 2-core machine): on
# shared MCC instances the states and edges of a whole state space are
# the one-process search's and the oracle's, deadlock and reachability
# answers are the same (mck check replays every witness before printing
# it; tests/unit/test_dist.c replays them with its own code on random
# nets), limits end in UNKNOWN with the reason, a rank that leaves before
# the search ends the others' search instead of hanging them, and the
# dist checker refuses to run outside MPI.  Skipped, saying why, only when
# this build or this machine has no MPI.
: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${MCK:=$TOP/mck}"
: "${SHARED:=$TOP/../shared}"
tmp="${TMPDIR:-/tmp}/mck_mpi.$$"
trap 'rm -f "$tmp".*' EXIT INT TERM

out=$("$MCK" check -c dist "$TOP/examples/pep/philo4.ll_net" 2>&1)
st=$?
case "$st:$out" in
    "2:"*"runs under MPI"*) echo "ok - -c dist without --mpi: exit 2, says it needs MPI" ;;
    *) echo "not ok - -c dist without --mpi: exit $st: $out" ;;
esac

out=$("$MCK" check --mpi -c symbolic "$TOP/examples/pep/philo4.ll_net" 2>&1)
st=$?
case "$st:$out" in
    "2:"*"--mpi runs the dist checker"*) echo "ok - --mpi with another checker: exit 2" ;;
    *) echo "not ok - --mpi -c symbolic: exit $st: $out" ;;
esac

if ! grep -q -- '-DMCK_HAVE_MPI' "$TOP/config.mk" 2>/dev/null; then
    out=$("$MCK" check --mpi "$TOP/examples/pep/philo4.ll_net" 2>&1)
    st=$?
    case "$st:$out" in
        "2:"*"has no MPI"*) echo "ok - --mpi in a build without MPI: exit 2, says so" ;;
        *) echo "not ok - --mpi without MPI: exit $st: $out" ;;
    esac
    echo "skip - mpirun: this build has no MPI (configure found no Open MPI)"
    exit 0
fi
if ! command -v mpirun >/dev/null 2>&1; then
    echo "skip - mpirun: not installed (Debian package openmpi-bin)"
    exit 0
fi

# Open MPI refuses root unless told, and 3 ranks on 2 cores unless told
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Under AddressSanitizer (.ci/run): Open MPI leaves what it allocated after
# MPI_Finalize in components it unloads, where LeakSanitizer cannot name
# them; kept loaded and unwound whole, tests/lsan.supp names their
# libraries, and a leak of mck's own is still reported
export OMPI_MCA_mca_base_component_disable_dlclose=1 PMIX_MCA_mca_base_component_disable_dlclose=1
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
limit=$(command -v timeout >/dev/null 2>&1 && echo "timeout 300")
# a rank waiting for the others gives its core away instead of spinning:
# the machine is shared
mpiflags="--oversubscribe --mca mpi_yield_when_idle 1"
ranks() {   # N, then mck check's arguments; rank 0's stdout, stderr in $tmp.err
    n=$1
    shift
    $limit mpirun -np "$n" $mpiflags "$MCK" check --mpi "$@" 2>"$tmp.err"
}
stat() {   # NAME FILE: the number of a -v statistics line
    sed -n "s/^$1: \([0-9]*\)$/\1/p" "$2" | head -n 1
}

out=$(ranks 2 "$TOP/examples/pep/philo4.ll_net")
st=$?
case "$st:$out" in
    "0:Result: YES."*Witness:*takeleft*) echo "ok - philo4 on 2 ranks: the deadlock and a run to it" ;;
    *) echo "not ok - philo4 on 2 ranks: exit $st: $out $(head -c 300 "$tmp.err")" ;;
esac

if [ ! -d "$SHARED/mcc" ]; then
    echo "skip - MCC instances: $SHARED/mcc not found"
    exit 0
fi

# whole state spaces (no deadlock): states and edges as one process and
# the oracle count them
for inst in Dekker-PT-010 FlexibleBarrier-PT-04a CloudOpsManagement-PT-00002by00001 NeighborGrid-PT-d2n3m1c12 \
            SimpleLoadBal-PT-02; do
    model="$SHARED/mcc/$inst/model.pnml"
    [ -f "$model" ] || { echo "skip - $inst: not in $SHARED/mcc"; continue; }
    "$MCK" check -v -j 1 "$model" >"$tmp.one" 2>&1
    one_st=$?
    s1=$(stat states "$tmp.one") e1=$(stat edges "$tmp.one")
    oracle="$SHARED/mcc/oracle/$inst-SS.out"
    so=$(sed -n 's/^STATE_SPACE STATES \([0-9]*\) .*/\1/p' "$oracle" 2>/dev/null)
    eo=$(sed -n 's/^STATE_SPACE TRANSITIONS \([0-9]*\) .*/\1/p' "$oracle" 2>/dev/null)
    for n in 2 3; do
        ranks "$n" -v "$model" >"$tmp.out"
        st=$?
        s=$(stat states "$tmp.err") e=$(stat edges "$tmp.err")
        if [ "$st" = "$one_st" ] && [ "$st" = 1 ] && [ -n "$s" ] && [ "$s" = "$s1" ] &&
           [ "$e" = "$e1" ] && { [ -z "$so" ] || { [ "$s" = "$so" ] && [ "$e" = "$eo" ]; }; } &&
           grep -q "^dist: $n ranks" "$tmp.err"; then
            echo "ok - $inst on $n ranks: no deadlock, $s states and $e edges as one process${so:+ and the oracle}"
        else
            echo "not ok - $inst on $n ranks: exit $st (one process $one_st), states $s/$s1/$so," \
                 "edges $e/$e1/$eo: $(head -c 300 "$tmp.out") $(head -c 300 "$tmp.err")"
        fi
    done
done

# deadlocks found: the answer, and a witness (replayed by mck before it
# is printed: an internal error otherwise) no longer than one process's
# shortest run
for inst in NQueens-PT-05 ShieldRVs-PT-001A ResAllocation-PT-R003C003; do
    model="$SHARED/mcc/$inst/model.pnml"
    [ -f "$model" ] || { echo "skip - $inst: not in $SHARED/mcc"; continue; }
    "$MCK" check "$model" >"$tmp.one" 2>&1
    len1=$(sed -n '/^\*\*\* initial/,/^\*\*\* final/p' "$tmp.one" | grep -vc '^\*\*\*')
    for n in 2 3; do
        ranks "$n" "$model" >"$tmp.out"
        st=$?
        len=$(sed -n '/^\*\*\* initial/,/^\*\*\* final/p' "$tmp.out" | grep -vc '^\*\*\*')
        if [ "$st" = 0 ] && grep -q '^Witness:' "$tmp.out" && [ "$len" = "$len1" ] &&
           ! grep -q "internal error" "$tmp.out" "$tmp.err"; then
            echo "ok - $inst on $n ranks: a deadlock, a witness of $len steps as one process's"
        else
            echo "not ok - $inst on $n ranks: exit $st, $len steps (one process: $len1):" \
                 "$(head -c 300 "$tmp.out") $(head -c 300 "$tmp.err")"
        fi
    done
done

# reachability: every formula of an MCC file, the one-process answers
inst=Dekker-PT-010
dir="$SHARED/mcc/$inst"
for exam in ReachabilityCardinality ReachabilityFireability; do
    [ -f "$dir/$exam.xml" ] || continue
    "$MCK" check "$dir/model.pnml" "$dir/$exam.xml" 2>&1 | grep '^Property' >"$tmp.one"
    ranks 3 "$dir/model.pnml" "$dir/$exam.xml" | grep '^Property' >"$tmp.out"
    decided=$(grep -c 'Result: \(YES\|NO\)' "$tmp.out")
    if [ "$decided" -ge 10 ] && cmp -s "$tmp.one" "$tmp.out"; then
        echo "ok - $inst $exam on 3 ranks: the one-process answers ($decided decided)"
    else
        echo "not ok - $inst $exam on 3 ranks: $(diff "$tmp.one" "$tmp.out" | head -n 6 | tr '\n' ' ')"
    fi
done

# limits: --mem is per rank, --timeout for the run; either ends every
# rank in UNKNOWN with the reason, rank 0 saying it, never a hang
big="$SHARED/mcc/Kanban-PT-00005/model.pnml"
# a model of tens of millions of states runs long enough for a limit of seconds and
# a signal on any machine, and its place bounds take milliseconds (they
# get a twentieth of the time: a net of slow bounds would end UNKNOWN for
# them instead, under a sanitizer or on a loaded machine)
long="$SHARED/mcc/Dekker-PT-020/model.pnml"
[ -f "$long" ] || long=$big
if [ -f "$big" ]; then
    out=$(ranks 2 --mem 8 "$big")
    st=$?
    case "$st:$out" in
        "3:Result: UNKNOWN (memory budget exhausted on rank "[01]" of 2)."*)
            echo "ok - --mem 8 on 2 ranks: UNKNOWN, the rank out of memory named" ;;
        *) echo "not ok - --mem 8 on 2 ranks: exit $st: $out $(head -c 300 "$tmp.err")" ;;
    esac
    # the clock starts with each rank, MPI's start-up included (seconds
    # under a sanitizer): 5 s leave the bounds their share
    out=$(ranks 3 --timeout 5 "$long")
    st=$?
    case "$st:$out" in
        "3:Result: UNKNOWN (time limit reached)."*) echo "ok - --timeout 5 on 3 ranks: UNKNOWN, time limit reached" ;;
        *) echo "not ok - --timeout 5 on 3 ranks: exit $st: $out $(head -c 300 "$tmp.err")" ;;
    esac
    # SIGINT to one rank (not to mpirun): every rank stops at the round's
    # agreement, and rank 0 reports how far they got
    # -v: rank 0's progress lines say when the search runs (every 2 s)
    : >"$tmp.interr"
    $limit mpirun -np 2 $mpiflags "$MCK" check --mpi -v "$long" >"$tmp.int" 2>"$tmp.interr" &
    job=$!
    victim=
    i=0
    while [ $i -lt 300 ] && ! grep -q '^dist: [0-9]* states' "$tmp.interr"; do
        sleep 0.2
        i=$((i + 1))
    done
    victim=$(pgrep -f "^$MCK check --mpi -v $long" | tail -n 1)
    [ -n "$victim" ] && kill -INT "$victim"
    wait "$job"
    st=$?
    if [ -n "$victim" ] && [ "$st" = 3 ] && grep -q '^Result: UNKNOWN (interrupted)' "$tmp.int"; then
        echo "ok - SIGINT to one rank: every rank stops, UNKNOWN (interrupted)"
    else
        echo "not ok - SIGINT to one rank ($victim): exit $st: $(head -c 300 "$tmp.int")" \
             "$(head -c 300 "$tmp.interr")"
    fi
fi

# Ctrl-C on mpirun: Open MPI passes SIGINT to every rank; rank 0 alone
# reports, with the statistics so far (mpirun's own status is its own)
if [ -f "$big" ]; then
    : >"$tmp.interr"
    $limit mpirun -np 2 $mpiflags "$MCK" check --mpi -v "$long" >"$tmp.int" 2>"$tmp.interr" &
    job=$!
    i=0
    while [ $i -lt 300 ] && ! grep -q '^dist: [0-9]* states' "$tmp.interr"; do
        sleep 0.2
        i=$((i + 1))
    done
    launcher=$(pgrep -f "^mpirun -np 2 $mpiflags $MCK check --mpi -v $long" | head -n 1)
    [ -n "$launcher" ] && kill -INT "$launcher"
    wait "$job"
    if [ -n "$launcher" ] && grep -q '^Result: UNKNOWN (interrupted)' "$tmp.int" &&
       [ "$(grep -c '^states:' "$tmp.interr")" = 1 ]; then
        echo "ok - SIGINT to mpirun: UNKNOWN (interrupted), rank 0's statistics once"
    else
        echo "not ok - SIGINT to mpirun ($launcher): $(head -c 300 "$tmp.int")" \
             "$(grep -c '^states:' "$tmp.interr") statistics"
    fi
fi

# a rank that cannot read the model (MPMD: rank 1 is given a file that is
# not there) leaves with its error; rank 0 answers UNKNOWN and says why
model="$SHARED/mcc/Dekker-PT-010/model.pnml"
$limit mpirun $mpiflags -np 1 "$MCK" check --mpi "$model" : \
    -np 1 "$MCK" check --mpi "$tmp.missing.pnml" >"$tmp.out" 2>"$tmp.err"
st=$?
if grep -q '^Result: UNKNOWN (rank 1 of 2 ended before the search' "$tmp.out" &&
   grep -q "missing" "$tmp.err" && [ "$st" -ne 0 ]; then
    echo "ok - a rank without the model: its error, and UNKNOWN from rank 0, no hang"
else
    echo "not ok - a rank without the model: exit $st: $(head -c 300 "$tmp.out") $(head -c 300 "$tmp.err")"
fi

# ranks given different options (MPMD again): runs wanted by rank 0 only
# would make their records differ; every property answers UNKNOWN, saying so
prop="$SHARED/mcc/Dekker-PT-010/ReachabilityFireability.xml"
if [ -f "$prop" ]; then
    $limit mpirun $mpiflags -np 1 "$MCK" check --mpi "$model" "$prop" : \
        -np 1 "$MCK" check --mpi -q "$model" "$prop" >"$tmp.out" 2>"$tmp.err"
    n=$(grep -c 'UNKNOWN (the ranks were given different options' "$tmp.out")
    if [ "$n" -ge 10 ] && [ "$n" = "$(grep -c '^Property' "$tmp.out")" ]; then
        echo "ok - ranks with different options: $n properties UNKNOWN, saying why"
    else
        echo "not ok - ranks with different options: $(head -c 300 "$tmp.out") $(head -c 300 "$tmp.err")"
    fi
fi
