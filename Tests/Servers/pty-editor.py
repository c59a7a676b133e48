#!/usr/bin/env python3
"""Runs a command as an interactive terminal user would: in a new session on a pseudo-terminal,
as the terminal's foreground process group (like a job an interactive shell starts). Waits for
WAIT_FOR to appear on the screen, types KEYS, and waits for the command to end. Further
WAIT_FOR KEYS pairs are typed in turn, each once its WAIT_FOR appears after the previous keys.

usage: pty-editor.py TIMEOUT WAIT_FOR KEYS [WAIT_FOR KEYS]... -- COMMAND...
Exit: the command's exit status (128+N if signal N ended it); 124 if it did not draw WAIT_FOR or
end within TIMEOUT seconds (then its process group is killed); everything the terminal showed
goes to stdout. KEYS may hold \\r and \\x1b escapes.
"""
import fcntl, os, pty, select, signal, struct, sys, termios, time


def main():
    timeout = float(sys.argv[1])
    dashes = sys.argv.index("--")
    pairs = sys.argv[2:dashes]
    steps = [(pairs[i].encode(), pairs[i + 1].encode().decode("unicode_escape").encode())
             for i in range(0, len(pairs) - 1, 2)]
    command = sys.argv[dashes + 1:]
    pid, master = pty.fork()  # the child: setsid + the pty as controlling terminal, foreground
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        os.execvp(command[0], command)
    deadline = time.monotonic() + timeout
    screen = b""
    typed = 0  # steps typed so far
    seen = 0  # where on the screen the next WAIT_FOR is looked for
    status = None
    while status is None:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select([master], [], [], min(left, 0.2))
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the terminal's last user is gone
                chunk = b""
            screen += chunk
        if typed < len(steps) and steps[typed][0] in screen[seen:]:
            seen = screen.index(steps[typed][0], seen) + len(steps[typed][0])
            os.write(master, steps[typed][1])
            typed += 1
        done, raw = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            status = raw
    while status is not None:  # what the command wrote just before it ended is still unread
        ready, _, _ = select.select([master], [], [], 0)
        try:
            chunk = os.read(master, 65536) if ready else b""
        except OSError:  # EIO: all read
            chunk = b""
        if not chunk:
            break
        screen += chunk
    sys.stdout.write(screen.decode("utf-8", "replace"))
    if status is None:
        sys.stdout.write("\n[pty-editor: timed out; typed %d of %d steps]\n" % (typed, len(steps)))
        os.killpg(pid, signal.SIGKILL)  # the session's orphaned stopped groups get SIGHUP
        os.waitpid(pid, 0)
        sys.exit(124)
    sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))


main()
