# Sourced by scripts/demo.sh: two devices share one remote (a bare repository standing in for
# GitHub), edit the same vault, and sync. Uses $QUIRE, $WORK and step() from demo.sh.
printf '\n%s== Two devices, one vault ==%s\n' "$BOLD" "$PLAIN"
# on DEVICE TIME ARGS…: run quire as that device at that time.
on() { dev=$1; at=$2; shift 2; printf '\n%s[%s] $ quire %s%s\n' "$BOLD" "$dev" "$*" "$PLAIN"; QUIRE_DEVICE=$dev QUIRE_NOW=$at "$QUIRE" "$@"; }
git init -q --bare "$WORK/remote.git"
cd "$WORK/vault"
step remote "$WORK/remote.git"
on laptop 2026-06-10T09:30:00Z sync
cd "$WORK"
on desktop 2026-06-10T09:30:00Z clone "$WORK/remote.git" desktop
echo "(laptop: $WORK/vault, desktop: $WORK/desktop)"

# 1. A clean merge: each device changes a different key of the same note.
cd "$WORK/vault"
on laptop 2026-06-10T10:00:00Z set "Woody's last ride" color=red
cd "$WORK/desktop"
on desktop 2026-06-10T10:05:00Z tag "Woody's last ride" +finale

# 2. A true collision: both devices rewrite the same line of one note; the newer edit wins,
#    the other is kept in history and listed by 'quire conflicts'.
cd "$WORK/vault"
sed -i 's/^The little bistro reopens under its old name\./The bistro reopens, and Remy cooks in plain sight./' Drafts/opening-night-at-cafe-gusteau.md
on laptop 2026-06-10T10:10:00Z set "Opening night at Café Gusteau" updatedAt=2026-06-10T10:10:00Z
cd "$WORK/desktop"
sed -i 's/^The little bistro reopens under its old name\./The bistro stays shut: Remy has a bigger plan./' Drafts/opening-night-at-cafe-gusteau.md
on desktop 2026-06-10T10:20:00Z set "Opening night at Café Gusteau" updatedAt=2026-06-10T10:20:00Z

# 3. An external editor: the desktop appends to a journal entry with plain shell tools.
printf '\nAdded from another editor, no quire involved.\n' >> Journal/2026-06-08-a-bad-day.md

cd "$WORK/vault"
on laptop 2026-06-10T10:30:00Z sync
cd "$WORK/desktop"
on desktop 2026-06-10T10:31:00Z sync
cd "$WORK/vault"
on laptop 2026-06-10T10:32:00Z sync
step show "Woody's last ride" --raw
step status
step conflicts
cmp -s "$WORK/vault/Drafts/woodys-last-ride.md" "$WORK/desktop/Drafts/woodys-last-ride.md" \
    && echo "Both devices hold the same notes."
