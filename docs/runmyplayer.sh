#!/bin/sh
# The Tablut competition's launcher convention: runmyplayer.sh ROLE TIMEOUT SERVER_IP
#   ROLE       white or black (any case)
#   TIMEOUT    the server's seconds per move (default 60)
#   SERVER_IP  the server's address (default localhost)
# Plays one game of Ashton Tablut with skald (docs/servers.md). Put the skald binary next to
# this script, or on the PATH.
here=$(dirname "$0")
if [ -x "$here/skald" ]; then skald="$here/skald"; else skald=skald; fi
exec "$skald" tablut-client "${1:?usage: runmyplayer.sh ROLE TIMEOUT SERVER_IP}" "${2:-60}" "${3:-localhost}"
