#!/bin/sh
# Measures one combination with wrk2 (constant rate, coordinated-omission corrected): verify it, start it from
# target/pssrbench.jar on a free port, poll until it answers, warm up, run wrk2, stop it by its PID, and append
# the run's row to OUT/summary.csv (the same columns as PssrBench's own results).
set -eu

usage() {
    cat <<USAGE
usage: scripts/wrk2-cell.sh --server ID --engine ID --mode ID [options]

  --server ID        server (as in: java -jar target/pssrbench.jar list)
  --engine ID        template engine
  --mode ID          approach
  --page ID          page (as in: java -jar target/pssrbench.jar list --pages; default: stocks)
  --connections N    connections (default: 128)
  --rate N           wrk2's constant rate, requests/s (required unless --closed-loop)
  --duration D       measured run, wrk units s/m (default: 40s: wrk2's 10 s calibration + 30 s; at least that)
  --warmup D         warm-up before the run (default: 10s), closed loop with Debian's wrk if there is one
  --delay D          per-item delay of the data source (default: 1ms)
  --threads N        wrk threads (default: 2)
  --out DIR          results folder (default: results/<UTC timestamp>)
  --target URL       drive a server running elsewhere (http://host:port); it is not started, verified or stopped
  --closed-loop      run a closed loop with Debian's wrk (no -R); the row is labelled model=closed
  -h, --help         this help

Two tools, each recognised by what it accepts (wrk2's usage names -R/--rate; Debian's wrk has no -R), not by
its name: wrk2 for constant-rate runs, \$WRK2, else wrk2 on PATH, else a wrk on PATH that takes -R (wrk2's
Makefile names its binary wrk); Debian's wrk for closed-loop runs and warm-ups, \$WRK, else wrk on PATH (WRK=
empty for none: then wrk2 warms up at the run's rate, as it refuses to run without -R). Example:
  scripts/wrk2-cell.sh --server nima --engine jstachio --mode virtual --page stocks --connections 128 --rate 800
USAGE
}

die() {
    echo "wrk2-cell: $1" >&2
    exit 2
}

run() {
    echo "+ $*" >&2
    "$@"
}

# A wrk duration (30, 30s, 2m, 1h) in seconds. Read here, not by PssrBench's one duration parser (base/Durations):
# these durations are wrk's and go to wrk as written, in wrk's syntax (a whole number, then s, m, h or nothing),
# which is not PssrBench's (ns to m, decimals: 1.5ms); and they are checked before the jar is looked for.
seconds() {
    case "$1" in
        *[!0-9smh]*|"") die "cannot read the duration '$1'; write for example 40s or 2m." ;;
        *h) echo $(( ${1%h} * 3600 )) ;;
        *m) echo $(( ${1%m} * 60 )) ;;
        *s) echo "${1%s}" ;;
        *) echo "$1" ;;
    esac
}

server="" engine="" mode="" page=stocks connections=128 rate="" duration=40s warmup=10s delay=1ms threads=2
out="" target="" closed=false
while [ $# -gt 0 ]; do
    case "$1" in
        --server) server=${2:?}; shift 2 ;;
        --engine) engine=${2:?}; shift 2 ;;
        --mode) mode=${2:?}; shift 2 ;;
        --page) page=${2:?}; shift 2 ;;
        --connections) connections=${2:?}; shift 2 ;;
        --rate) rate=${2:?}; shift 2 ;;
        --duration) duration=${2:?}; shift 2 ;;
        --warmup) warmup=${2:?}; shift 2 ;;
        --delay) delay=${2:?}; shift 2 ;;
        --threads) threads=${2:?}; shift 2 ;;
        --out) out=${2:?}; shift 2 ;;
        --target) target=${2:?}; shift 2 ;;
        --closed-loop) closed=true; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument '$1'." ;;
    esac
done

if [ -z "$server" ] || [ -z "$engine" ] || [ -z "$mode" ]; then
    usage >&2
    die "--server, --engine and --mode are required."
fi
case "$connections" in ''|*[!0-9]*) die "--connections takes a whole number." ;; esac
case "$threads" in ''|*[!0-9]*) die "--threads takes a whole number." ;; esac
[ "$threads" -le "$connections" ] || threads=$connections
# wrk and wrk2 open connections/threads per thread and say they opened all: 5 on 2 threads are 4.
[ $((connections % threads)) -eq 0 ] || die "--connections ($connections) must be a multiple of --threads ($threads): each wrk thread opens an equal share."
if [ "$closed" = true ]; then
    [ -z "$rate" ] || die "--rate and --closed-loop exclude each other."
else
    case "$rate" in ''|*[!0-9]*) die "--rate takes a whole number of requests per second (or use --closed-loop)." ;; esac
    [ "$(seconds "$duration")" -ge 40 ] || die "a wrk2 run needs --duration of at least 40s: 10 s of calibration, then 30 s measured."
fi
seconds "$warmup" >/dev/null

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=scripts/java-env.sh
. "$here/java-env.sh"
jar="$root/target/pssrbench.jar"
[ -f "$jar" ] || die "no $jar; build it first: mvn -B package -DskipTests"
# The pages come from PssrBench's registry, not from a list kept here.
pages=$("$JAVA_HOME/bin/java" -jar "$jar" list --pages)
echo "$pages" | grep -qx -- "$page" || die "unknown page '$page'; valid pages: $(echo "$pages" | paste -sd, - | sed 's/,/, /g')."

speaks_rate() {   # wrk2's usage names -R/--rate, Debian's wrk's does not; both print it when run bare
    "$1" 2>&1 | grep -q -- '--rate'
}
wrk2=${WRK2:-$(command -v wrk2 || true)}
wrk=${WRK-$(command -v wrk || true)}
if [ -n "$wrk" ]; then
    wrk=$(command -v "$wrk") || die "WRK=$wrk is not an executable; point it at Debian's wrk or set WRK= (empty) for none."
    if speaks_rate "$wrk"; then   # a wrk2 built by its own Makefile, which names the binary wrk
        [ -n "$wrk2" ] || wrk2=$wrk
        wrk=""
    fi
fi
if [ "$closed" = true ]; then
    [ -n "$wrk" ] || die "--closed-loop runs Debian's wrk, and there is none: install it (apt-get install wrk) or set WRK to its path."
    tool=$wrk
else
    if [ -z "$wrk2" ] || ! wrk2=$(command -v "$wrk2"); then
        die "no wrk2: set WRK2 to its path or put wrk2 on PATH (build it from github.com/giltene/wrk2), or give --closed-loop to measure a closed loop with Debian's wrk."
    fi
    speaks_rate "$wrk2" || die "$wrk2 does not accept -R: it is Debian's wrk, not wrk2; give --closed-loop to measure a closed loop with it (as \$WRK or wrk on PATH)."
    tool=$wrk2
fi

out=${out:-"$root/results/$(date -u +%Y%m%dT%H%M%SZ)"}
mkdir -p "$out/raw" "$out/hgrm" "$out/logs"
label="$server-$engine-$mode-$page-c$connections-$([ "$closed" = true ] && echo closed || echo "R$rate")"

version() {   # wrk and wrk2 print their version line first, then their usage
    echo "$1: $("$1" --version 2>&1 | head -n 1)"
}
if [ -n "$wrk" ]; then warmer=$(version "$wrk"); else warmer="$wrk2 at -R$rate"; fi
# Provenance: this cell's record in provenance.json, written by PssrBench itself, as bench writes its own.
set -- --server="$server" --engine="$engine" --mode="$mode" --page="$page" \
    --connections="$connections" --duration="$duration" --warmup="$warmup" \
    --delay="$delay" --threads="$threads" --out="$out"
if [ "$closed" = true ]; then set -- "$@" --closed-loop=true; else set -- "$@" --rate="$rate"; fi
[ -z "$target" ] || set -- "$@" --target="$target"
run "$JAVA_HOME/bin/java" -jar "$jar" provenance --out="$out" --command=scripts/wrk2-cell.sh \
    --load-generator="$(version "$tool")" --warmup-generator="$warmer" -- "$@" > /dev/null

pid=""
stop_server() {
    if [ -n "$pid" ]; then
        echo "+ kill -TERM $pid" >&2
        kill -TERM "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
        pid=""
    fi
}
trap stop_server EXIT
trap 'exit 130' INT TERM

if [ -z "$target" ]; then
    echo "+ $JAVA_HOME/bin/java -jar $jar verify --server=$server --engine=$engine --mode=$mode" >&2
    if ! "$JAVA_HOME/bin/java" -jar "$jar" verify --server="$server" --engine="$engine" --mode="$mode" \
        > "$out/logs/$label.verify.txt" 2>&1; then
        cat "$out/logs/$label.verify.txt" >&2
        echo "wrk2-cell: $server $engine $mode failed verify; not measured." >&2
        exit 1
    fi
    # The logs exist before the server starts: the first poll may run before the background shell has opened them,
    # and a failed read would end this script (set -e) while that shell, not yet java, loses the TERM sent to it.
    : > "$out/logs/$label.server.out"
    : > "$out/logs/$label.server.err"
    echo "+ $JAVA_HOME/bin/java -jar $jar serve --server=$server --engine=$engine --mode=$mode --port=0 --delay=$delay &" >&2
    "$JAVA_HOME/bin/java" -jar "$jar" serve --server="$server" --engine="$engine" --mode="$mode" --port=0 \
        --delay="$delay" > "$out/logs/$label.server.out" 2> "$out/logs/$label.server.err" &
    pid=$!
    # The port is on the server's first stdout line; readiness is then polled over HTTP.
    base=""
    tries=0
    while [ -z "$base" ]; do
        base=$(sed -n 's|^pssrbench: serving \(http://[^ ]*\)/ .*|\1|p' "$out/logs/$label.server.out")
        tries=$((tries + 1))
        if [ "$tries" -gt 300 ] || ! kill -0 "$pid" 2>/dev/null; then
            cat "$out/logs/$label.server.err" >&2
            die "the server did not start."
        fi
        [ -n "$base" ] || sleep 0.1
    done
    tries=0
    until curl -fsS -o /dev/null "$base/"; do
        tries=$((tries + 1))
        [ "$tries" -le 100 ] || die "the server at $base does not answer."
        sleep 0.1
    done
else
    base=${target%/}
fi
url="$base/$page"

# wrk2 refuses a run without -R, so the warm-up is a closed loop only with Debian's wrk; without it, wrk2 warms up
# at the run's own rate.
if [ -n "$wrk" ]; then
    run "$wrk" -t"$threads" -c"$connections" -d"$warmup" "$url" > "$out/logs/$label.warmup.txt"
else
    run "$wrk2" -t"$threads" -c"$connections" -d"$warmup" -R"$rate" "$url" > "$out/logs/$label.warmup.txt"
fi
raw="$out/raw/$label.txt"
lua="$here/pssrbench.lua"   # prints the run's numbers as one JSON line at the end
if [ "$closed" = true ]; then
    echo "# cmd: $tool -t$threads -c$connections -d$duration --latency -s $lua $url (closed loop)" > "$raw"
    run "$tool" -t"$threads" -c"$connections" -d"$duration" --latency -s "$lua" "$url" >> "$raw"
else
    echo "# cmd: $tool -t$threads -c$connections -d$duration -R$rate --latency -U -s $lua $url" > "$raw"
    run "$tool" -t"$threads" -c"$connections" -d"$duration" -R"$rate" --latency -U -s "$lua" "$url" >> "$raw"
fi
stop_server
run "$JAVA_HOME/bin/java" -jar "$jar" provenance --out="$out" --finish > /dev/null

run "$JAVA_HOME/bin/java" -jar "$jar" wrk-row --raw="$raw" --server="$server" --engine="$engine" --mode="$mode" \
    --page="$page" --rate="${rate:-0}" --csv="$out/summary.csv" --hgrm="$out/hgrm/$label"
echo "wrk2-cell: results in $out" >&2
