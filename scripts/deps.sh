#!/bin/sh
# Installs the build dependencies that are missing (Debian packages), or, when not
# root, prints the exact command to run.  With a group named, says what it found or
# installed for it (one line on stderr); without one, or with -q, quiet when everything
# is present (the Makefile's targets ask with -q).
#   scripts/deps.sh           what `make` and `make test` need
#   scripts/deps.sh mpi       also Open MPI (mpicc, mpirun) for `make mpi`
#   scripts/deps.sh plot      also gnuplot (no X) for scripts/plot.sh and the reproduction scripts
#   scripts/deps.sh fuzz      also clang with libFuzzer for `make fuzz`
set -u
missing=""
fuzz=no
quiet=no
[ "${1:-}" != -q ] || { quiet=yes; shift; }
wanted="" # what the named groups need, said when it is all there

# libFuzzer ships apart from clang on Debian (libclang-rt-N-dev): try to link it.
has_libfuzzer() {
    t=$(mktemp -d) || return 1
    printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; return (int)n * 0; }\n' >"$t/f.c"
    clang -fsanitize=fuzzer -o "$t/f" "$t/f.c" >/dev/null 2>&1
    ok=$?
    rm -rf "$t"
    return $ok
}
for extra in "$@"; do
    case $extra in
    mpi)
        { command -v mpicc && command -v mpirun; } >/dev/null 2>&1 || missing="$missing openmpi-bin libopenmpi-dev"
        wanted="$wanted mpicc and mpirun (mpi)," ;;
    plot)
        command -v gnuplot >/dev/null 2>&1 || missing="$missing gnuplot-nox"
        wanted="$wanted gnuplot (plot)," ;;
    fuzz) fuzz=yes wanted="$wanted clang with libFuzzer (fuzz)," ;;
    *) echo "scripts/deps.sh: unknown group '$extra' (mpi, plot or fuzz)" >&2; exit 2 ;;
    esac
done
have_pc() { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$1" 2>/dev/null; }
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
[ -f /usr/include/ev.h ] || missing="$missing libev-dev"
[ -f /usr/include/bzlib.h ] || missing="$missing libbz2-dev"
command -v python3 >/dev/null 2>&1 || missing="$missing python3" # scripts/netrace-gen.py (make test runs it)
have_pc check || missing="$missing check"
have_pc inih || missing="$missing libinih-dev"
have_pc gsl || missing="$missing libgsl-dev"
for tool in cc make; do
    command -v "$tool" >/dev/null 2>&1 || missing="$missing build-essential"
done
if [ "$fuzz" = yes ]; then
    if ! command -v clang >/dev/null 2>&1; then
        missing="$missing clang libclang-rt-dev" # Debian's unversioned names, matching versions
    elif ! has_libfuzzer; then
        missing="$missing libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev"
    fi
fi
if [ -z "$missing" ]; then
    [ "$quiet" = yes ] || [ -z "$wanted" ] || echo "scripts/deps.sh: nothing to install: the build dependencies and${wanted%,} are present" >&2
    exit 0
fi
# shellcheck disable=SC2086,SC2046 # word splitting of the package list is wanted
set -- $(printf '%s\n' $missing | sort -u)
if [ "$(id -u)" -ne 0 ]; then
    echo "missing build dependencies; install them with:" >&2
    echo "  sudo apt-get install -y $*" >&2
    exit 1
fi
echo "installing build dependencies: $*" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends "$@" >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null && apt-get install -y --no-install-recommends "$@" >/dev/null; } ||
    { echo "apt-get install $* failed" >&2; exit 1; }
echo "installed: $*" >&2
