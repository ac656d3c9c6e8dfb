#!/usr/bin/env python3
"""tools/console.py - `make console`: type at the kernel that `make debug` runs.

`make debug` gives gdb the terminal, so QEMU's serial port goes to a Unix
socket (build/debug-serial.sock; everything it prints is also kept in
build/debug-serial.log).  This connects a second terminal to that socket:
what the kernel prints appears here, and what you type goes to its monitor,
while gdb in the first terminal stops and starts it.  Ctrl-] quits (as in
telnet); QEMU and gdb go on.  Standard input need not be a terminal:
`printf 'meminfo\\n' | make console` types a line and shows the answer.
"""

import os
import select
import socket
import sys
import termios
import time
import tty

QUIT = b"\x1d"          # Ctrl-]


def connect(path, wait=10.0):
    """A connection to QEMU's serial socket; QEMU may take a moment to create it."""
    end = time.monotonic() + wait
    while True:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            return s
        except OSError as e:
            s.close()
            if time.monotonic() > end:
                sys.exit("console: cannot connect to %s (%s): is `make debug` running?"
                         % (path, e.strerror))
            time.sleep(0.2)


def pump(sock, interactive):
    """Copy the socket to stdout and stdin to the socket until Ctrl-], the end of a piped
    input (after a moment for the answer), or QEMU closing the socket."""
    stdin, stdout = sys.stdin.fileno(), sys.stdout.fileno()
    inputs, quiet_until = [sock, stdin], None
    while True:
        timeout = None if quiet_until is None else max(0.0, quiet_until - time.monotonic())
        ready, _, _ = select.select(inputs, [], [], timeout)
        if not ready:
            return                      # piped input done and the kernel has answered
        if sock in ready:
            data = sock.recv(4096)
            if not data:
                return                  # QEMU ended
            os.write(stdout, data)
            if quiet_until is not None:
                quiet_until = time.monotonic() + 1.0
        if stdin in ready:
            data = os.read(stdin, 1024)
            if interactive and QUIT in data:
                return
            if not data:                # end of piped input: show what comes back
                inputs.remove(stdin)
                quiet_until = time.monotonic() + 1.0
                continue
            sock.sendall(data)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join("build", "debug-serial.sock")
    sock = connect(path)
    interactive = os.isatty(sys.stdin.fileno())
    if not interactive:
        pump(sock, False)
        return
    print("console: connected to %s; Ctrl-] quits" % path, flush=True)
    saved = termios.tcgetattr(sys.stdin.fileno())
    try:
        tty.setraw(sys.stdin.fileno())
        pump(sock, True)
    finally:
        termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, saved)
        print("\nconsole: closed")


if __name__ == "__main__":
    main()
