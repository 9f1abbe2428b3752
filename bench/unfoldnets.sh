#!/bin/sh
# Generates the scalable safe nets of bench/unfold.sh as PEP low-level
# nets on standard output (not a test):
#   philo N   N dining philosophers, each takes its left fork, then its
#             right one, eats and puts both back: one deadlock (every
#             philosopher holds his left fork)
#   ring N    N processes on a token ring: each works locally (idle ->
#             ready), enters its critical section only with the token,
#             then passes the token on; no deadlock
# Usage: bench/unfoldnets.sh philo|ring N
case $1 in philo|ring) ;; *) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;; esac
n=$2
case $n in ''|*[!0-9]*) echo "unfoldnets.sh: N must be a number" >&2; exit 2 ;; esac
awk -v kind="$1" -v n="$n" 'BEGIN {
    print "PEP"; print "PTNet"; print "FORMAT_N2"
    if (kind == "philo") {
        printf "%% %d dining philosophers (bench/unfoldnets.sh)\nPL\n", n
        # places: think i = 3i+1, hasleft i = 3i+2, eat i = 3i+3, fork i = 3n+i+1
        for (i = 0; i < n; i++) {
            printf "%d\"think%d\"M1m1\n", 3*i+1, i
            printf "%d\"hasleft%d\"\n", 3*i+2, i
            printf "%d\"eat%d\"\n", 3*i+3, i
        }
        for (i = 0; i < n; i++) printf "%d\"fork%d\"M1m1\n", 3*n+i+1, i
        print "TR"
        for (i = 0; i < n; i++) {
            printf "%d\"takeleft%d\"\n", 3*i+1, i
            printf "%d\"takeright%d\"\n", 3*i+2, i
            printf "%d\"release%d\"\n", 3*i+3, i
        }
        print "TP"
        for (i = 0; i < n; i++) {
            l = 3*n+i+1; r = 3*n+(i+1)%n+1
            printf "%d<%d\n", 3*i+1, 3*i+2
            printf "%d<%d\n", 3*i+2, 3*i+3
            printf "%d<%d\n%d<%d\n%d<%d\n", 3*i+3, 3*i+1, 3*i+3, l, 3*i+3, r
        }
        print "PT"
        for (i = 0; i < n; i++) {
            l = 3*n+i+1; r = 3*n+(i+1)%n+1
            printf "%d>%d\n%d>%d\n", 3*i+1, 3*i+1, l, 3*i+1
            printf "%d>%d\n%d>%d\n", 3*i+2, 3*i+2, r, 3*i+2
            printf "%d>%d\n", 3*i+3, 3*i+3
        }
    } else {
        printf "%% a token ring of %d processes (bench/unfoldnets.sh)\nPL\n", n
        # places: idle i = 4i+1, ready i = 4i+2, crit i = 4i+3, token i = 4i+4
        for (i = 0; i < n; i++) {
            printf "%d\"idle%d\"M1m1\n", 4*i+1, i
            printf "%d\"ready%d\"\n", 4*i+2, i
            printf "%d\"crit%d\"\n", 4*i+3, i
            printf "%d\"token%d\"%s\n", 4*i+4, i, i == 0 ? "M1m1" : ""
        }
        print "TR"
        for (i = 0; i < n; i++) {
            printf "%d\"work%d\"\n", 3*i+1, i
            printf "%d\"enter%d\"\n", 3*i+2, i
            printf "%d\"pass%d\"\n", 3*i+3, i
        }
        # a process that is not ready passes the token on as well
        for (i = 0; i < n; i++) printf "%d\"skip%d\"\n", 3*n+i+1, i
        print "TP"
        for (i = 0; i < n; i++) {
            nx = 4*((i+1)%n)+4
            printf "%d<%d\n", 3*i+1, 4*i+2
            printf "%d<%d\n", 3*i+2, 4*i+3
            printf "%d<%d\n%d<%d\n", 3*i+3, 4*i+1, 3*i+3, nx
            printf "%d<%d\n%d<%d\n", 3*n+i+1, 4*i+1, 3*n+i+1, nx
        }
        print "PT"
        for (i = 0; i < n; i++) {
            printf "%d>%d\n", 4*i+1, 3*i+1
            printf "%d>%d\n%d>%d\n", 4*i+2, 3*i+2, 4*i+4, 3*i+2
            printf "%d>%d\n", 4*i+3, 3*i+3
            printf "%d>%d\n%d>%d\n", 4*i+1, 3*n+i+1, 4*i+4, 3*n+i+1
        }
    }
}'
