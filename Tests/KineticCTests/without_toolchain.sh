#!/bin/sh
# without_toolchain.sh TOOLCHAIN_DIR COMMAND [ARG...]: runs COMMAND with the Swift toolchain out
# of reach, for `make test-c`: LD_LIBRARY_PATH and SWIFT_BACKTRACE unset and, when this runs as
# root and mount namespaces are available, TOOLCHAIN_DIR covered by an empty folder (a bind
# mount in a private mount namespace: other processes are unaffected). Otherwise (not root, or
# no unshare) only the environment is cleared, and that is said.
toolchain=$1
shift
empty=$(mktemp -d)
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
   unshare -m sh -c 'mount --bind "$1" "$2"' sh "$empty" "$toolchain" 2>/dev/null; then
    echo "without_toolchain: $toolchain hidden (bind mount in a private mount namespace), LD_LIBRARY_PATH unset: $*"
    unshare -m sh -c '
        mount --bind "$1" "$2" || exit 125
        [ -z "$(ls -A "$2")" ] || { echo "without_toolchain: $2 still visible" >&2; exit 125; }
        shift 2
        exec env -u LD_LIBRARY_PATH -u SWIFT_BACKTRACE "$@"' sh "$empty" "$toolchain" "$@"
    status=$?
else
    echo "without_toolchain: cannot hide $toolchain (not root, or no mount namespace); LD_LIBRARY_PATH unset only: $*"
    env -u LD_LIBRARY_PATH -u SWIFT_BACKTRACE "$@"
    status=$?
fi
rmdir "$empty"
exit $status
