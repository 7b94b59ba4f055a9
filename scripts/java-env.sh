# shellcheck shell=sh
# Sourced by the other scripts: finds a JDK 21 or newer and exports JAVA_HOME and PATH for it.
# Order: $PSSR_JAVA_HOME, $JAVA_HOME, the java on PATH, then the newest JDK under the usual install folders.
# Fails with one sentence (exit 1) when there is none. Also quiets Maven's own warnings on that JDK (below).

pssr_java_major() {
    # Prints the feature version of the JDK in $1 (from its release file), or nothing.
    [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] && [ -f "$1/release" ] || return 0
    sed -n 's/^JAVA_VERSION="\{0,1\}\([0-9][0-9]*\).*/\1/p' "$1/release" | head -n 1
}

pssr_find_java() {
    pssr_candidates=""
    [ -n "${PSSR_JAVA_HOME:-}" ] && pssr_candidates="$PSSR_JAVA_HOME"
    [ -n "${JAVA_HOME:-}" ] && pssr_candidates="$pssr_candidates $JAVA_HOME"
    if command -v java >/dev/null 2>&1; then
        pssr_on_path=$(readlink -f "$(command -v java)" 2>/dev/null || true)
        [ -n "$pssr_on_path" ] && pssr_candidates="$pssr_candidates ${pssr_on_path%/bin/java}"
    fi
    for pssr_dir in $pssr_candidates; do
        pssr_major=$(pssr_java_major "$pssr_dir")
        if [ -n "$pssr_major" ] && [ "$pssr_major" -ge 21 ]; then
            JAVA_HOME=$pssr_dir
            export JAVA_HOME
            PATH="$JAVA_HOME/bin:$PATH"
            export PATH
            return 0
        fi
    done
    pssr_best=""
    pssr_best_major=0
    for pssr_dir in /usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/lib/jvm/* "$HOME"/.sdkman/candidates/java/*; do
        pssr_major=$(pssr_java_major "$pssr_dir")
        if [ -n "$pssr_major" ] && [ "$pssr_major" -ge 21 ] && [ "$pssr_major" -gt "$pssr_best_major" ]; then
            pssr_best=$pssr_dir
            pssr_best_major=$pssr_major
        fi
    done
    if [ -z "$pssr_best" ]; then
        echo "pssrbench: no JDK 21 or newer found (looked at PSSR_JAVA_HOME, JAVA_HOME, PATH and /usr/lib/jvm); install one or set JAVA_HOME to it." >&2
        exit 1
    fi
    JAVA_HOME=$pssr_best
    export JAVA_HOME
    PATH="$JAVA_HOME/bin:$PATH"
    export PATH
}

pssr_find_java

# Maven runs on this JAVA_HOME, and its own libraries (Guava's AbstractFuture) call sun.misc.Unsafe's memory-access
# methods, which JDK 24+ reports with four WARNING lines on every build, printed into the user's terminal by
# scripts/pssrbench. Allowing that access for Maven's JVM alone (MAVEN_OPTS, the user's own options kept) silences
# those lines and nothing else: build errors and the project's own warnings are printed as before. JDK 21 and 22 do
# not know the flag (the JVM would refuse to start), and do not warn, so it is added on JDK 23+ only.
pssr_maven_unsafe=$(pssr_java_major "$JAVA_HOME")
if [ -n "$pssr_maven_unsafe" ] && [ "$pssr_maven_unsafe" -ge 23 ]; then
    case " ${MAVEN_OPTS:-} " in
        *" --sun-misc-unsafe-memory-access="*) ;;
        *) MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }--sun-misc-unsafe-memory-access=allow"; export MAVEN_OPTS ;;
    esac
fi
