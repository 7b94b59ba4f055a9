#!/bin/sh
# Sweeps combinations with wrk2: for each combination, page and connection count, first the maximum throughput
# in a closed loop, then wrk2 at fixed fractions of it. Every point is one scripts/wrk2-cell.sh run (its own
# server JVM, verified first) appending to the same OUT/summary.csv. A probe whose row is not valid gives no
# maximum: its point gets no constant-rate run, the sweep goes on and exits 1 at the end.
set -eu

usage() {
    cat <<USAGE
usage: scripts/wrk2-sweep.sh [options]

  --server LIST       servers, comma-separated (default: all, from 'list')
  --engine LIST       engines (default: all)
  --mode LIST         modes (default: all)
  --page LIST         pages (default: all, from 'list --pages')
  --connections LIST  connection counts (default: 128)
  --fractions LIST    rates as percentages of the closed-loop maximum (default: 25,50,75,90)
  --rate LIST         fixed rates instead of fractions (requests/s); skips the closed-loop search
  --duration D        each wrk2 run (default: 40s, the minimum: 10 s calibration + 30 s measured)
  --probe-duration D  the closed-loop run that finds the maximum (default: 20s)
  --warmup D          closed-loop warm-up before every run (default: 10s)
  --delay D           per-item delay of the data source (default: 1ms)
  --out DIR           results folder (default: results/<UTC timestamp>)
  --target URL        drive a server running elsewhere: give exactly one --server, --engine and --mode to label it
  -h, --help          this help

wrk2 is \$WRK2, else wrk2 on PATH; the closed-loop search and the warm-ups use Debian's wrk, \$WRK, else wrk on
PATH (WRK= empty for none: then wrk2 at a rate no server here reaches finds the maximum). A probe that is not
valid (errors, timeouts) gives no maximum: its point gets no constant-rate run and the sweep exits 1. Example:
  scripts/wrk2-sweep.sh --server nima,netty --engine jstachio,htmlflow --page stocks --connections 64,128
USAGE
}

die() {
    echo "wrk2-sweep: $1" >&2
    exit 2
}

run() {
    echo "+ $*" >&2
    "$@"
}

servers="" engines="" modes="" pages="" connections=128 fractions="25,50,75,90" rates=""
duration=40s probe=20s warmup=10s delay=1ms out="" target=""
while [ $# -gt 0 ]; do
    case "$1" in
        --server) servers=${2:?}; shift 2 ;;
        --engine) engines=${2:?}; shift 2 ;;
        --mode) modes=${2:?}; shift 2 ;;
        --page) pages=${2:?}; shift 2 ;;
        --connections) connections=${2:?}; shift 2 ;;
        --fractions) fractions=${2:?}; shift 2 ;;
        --rate) rates=${2:?}; shift 2 ;;
        --duration) duration=${2:?}; shift 2 ;;
        --probe-duration) probe=${2:?}; shift 2 ;;
        --warmup) warmup=${2:?}; shift 2 ;;
        --delay) delay=${2:?}; shift 2 ;;
        --out) out=${2:?}; shift 2 ;;
        --target) target=${2:?}; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument '$1'." ;;
    esac
done

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=scripts/java-env.sh
. "$here/java-env.sh"
jar="$root/target/pssrbench.jar"
[ -f "$jar" ] || die "no $jar; build it first: mvn -B package -DskipTests"
out=${out:-"$root/results/$(date -u +%Y%m%dT%H%M%SZ)"}
mkdir -p "$out"

in_list() {   # in_list WORD LIST: LIST empty means any
    [ -z "$2" ] && return 0
    case ",$2," in *",$1,"*) return 0 ;; *) return 1 ;; esac
}

echo "+ java -jar $jar list" >&2
combinations=$("$JAVA_HOME/bin/java" -jar "$jar" list)
# Every page by default, from PssrBench's registry, not from a list kept here (each cell checks the ids).
if [ -z "$pages" ]; then
    echo "+ java -jar $jar list --pages" >&2
    pages=$("$JAVA_HOME/bin/java" -jar "$jar" list --pages | paste -sd, -)
fi
selected=$(echo "$combinations" | while read -r s e m; do
    if in_list "$s" "$servers" && in_list "$e" "$engines" && in_list "$m" "$modes"; then echo "$s $e $m"; fi
done)
[ -n "$selected" ] || die "no valid combination matches that selection; see: java -jar target/pssrbench.jar list"
if [ -n "$target" ] && [ "$(echo "$selected" | wc -l)" -ne 1 ]; then
    die "--target drives one running server: name it with one --server, --engine and --mode."
fi

speaks_rate() {   # wrk2's usage names -R/--rate, Debian's wrk's does not
    "$1" 2>&1 | grep -q -- '--rate'
}
wrk=${WRK-$(command -v wrk || true)}
wrk2=${WRK2:-$(command -v wrk2 || true)}
if [ -n "$wrk" ] && speaks_rate "$wrk"; then   # a wrk2 built by its own Makefile, which names the binary wrk
    [ -n "$wrk2" ] || wrk2=$wrk
    wrk=""
fi
if [ -z "$wrk2" ] || ! speaks_rate "$wrk2"; then
    die "no wrk2: set WRK2 to its path or put wrk2 on PATH (build it from github.com/giltene/wrk2); Debian's wrk has no -R."
fi
version() {   # wrk and wrk2 print their version line first, then their usage
    echo "$1: $("$1" --version 2>&1 | head -n 1)"
}
if [ -n "$wrk" ]; then warmer=$(version "$wrk"); else warmer="$wrk2 at each run's rate"; fi
# Provenance: the sweep's own record in provenance.json; each cell adds its own under later_runs, with its end time
# and load average.
set -- --page="$pages" --connections="$connections" --duration="$duration" \
    --warmup="$warmup" --delay="$delay" --out="$out"
[ -z "$servers" ] || set -- "$@" --server="$servers"
[ -z "$engines" ] || set -- "$@" --engine="$engines"
[ -z "$modes" ] || set -- "$@" --mode="$modes"
if [ -n "$rates" ]; then
    set -- "$@" --rate="$rates"
else
    set -- "$@" --fractions="$fractions" --probe-duration="$probe"
fi
[ -z "$target" ] || set -- "$@" --target="$target"
run "$JAVA_HOME/bin/java" -jar "$jar" provenance --out="$out" --command=scripts/wrk2-sweep.sh \
    --load-generator="$(version "$wrk2")" --warmup-generator="$warmer" -- "$@" > /dev/null

cell() {   # cell CELL_ARGS...: one wrk2-cell.sh run with this sweep's tools and shared flags
    set -- "$here/wrk2-cell.sh" "$@" --warmup "$warmup" --delay "$delay" --out "$out"
    [ -z "$target" ] || set -- "$@" --target "$target"
    echo "+ WRK2=$wrk2 WRK=$wrk $*" >&2
    WRK2=$wrk2 WRK=$wrk "$@"
}

lines() {   # lines of summary.csv so far
    if [ -f "$out/summary.csv" ]; then wc -l < "$out/summary.csv"; else echo 0; fi
}

# The loop reads the combinations from a here-document, not a pipe, so that it runs in this shell and the count
# of probes without a maximum outlives it.
unprobed=0
while read -r s e m; do
    for page in $(echo "$pages" | tr ',' ' '); do
        for c in $(echo "$connections" | tr ',' ' '); do
            if [ -n "$rates" ]; then
                targets=$(echo "$rates" | tr ',' ' ')
            else
                # The maximum: a closed loop with Debian's wrk, else wrk2 at a rate no server here reaches (its row
                # is invalid for missing that rate, which is the point: it says what the server got through).
                before=$(lines)
                if [ -n "$wrk" ]; then
                    cell --server "$s" --engine "$e" --mode "$m" --page "$page" --connections "$c" \
                        --duration "$probe" --closed-loop
                    missed=""
                else
                    cell --server "$s" --engine "$e" --mode "$m" --page "$page" --connections "$c" \
                        --duration "$duration" --rate 1000000
                    missed=--allow-missed-rate
                fi
                if [ "$(lines)" -le "$before" ]; then
                    echo "wrk2-sweep: the probe of $s $e $m $page c$c wrote no row to $out/summary.csv." >&2
                    exit 1
                fi
                # The probe's row is the last one; pssrbench reads its column by name and refuses it, saying why,
                # if the probe is not valid (errors, timeouts): then there is no maximum to take fractions of.
                echo "+ $JAVA_HOME/bin/java -jar $jar last-row --column=req_per_s ${missed:+$missed }$out/summary.csv" >&2
                # shellcheck disable=SC2086 # $missed is one option or none
                if ! max=$("$JAVA_HOME/bin/java" -jar "$jar" last-row --column=req_per_s $missed "$out/summary.csv"); then
                    echo "wrk2-sweep: $s $e $m $page c$c: no maximum, so no constant-rate run for it." >&2
                    unprobed=$((unprobed + 1))
                    continue
                fi
                echo "wrk2-sweep: $s $e $m $page c$c: maximum $max req/s" >&2
                targets=$(for f in $(echo "$fractions" | tr ',' ' '); do
                    awk -v m="$max" -v f="$f" 'BEGIN { r = int(m * f / 100 + 0.5); if (r < 1) r = 1; print r }'
                done)
            fi
            for r in $targets; do
                cell --server "$s" --engine "$e" --mode "$m" --page "$page" --connections "$c" \
                    --duration "$duration" --rate "$r" || echo "wrk2-sweep: $s $e $m $page c$c R$r failed" >&2
            done
        done
    done
done <<SELECTED
$selected
SELECTED
echo "wrk2-sweep: results in $out/summary.csv" >&2
if [ "$unprobed" -gt 0 ]; then
    echo "wrk2-sweep: $unprobed closed-loop probe(s) not valid (see above): their points have no constant-rate runs." >&2
    exit 1
fi
