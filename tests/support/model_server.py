"""A real local HTTP server that speaks the chat-completions protocol and plays scripted
replies, so that tests run the real `openai` client code. Strict: a call beyond the script
is answered with an error and recorded, and `assert_done()` fails the test for it."""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Scripted = dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]]


def tool_call(
    name: str, arguments: dict[str, Any] | str, call_id: str = "call_1"
) -> dict[str, Any]:
    """A scripted assistant turn that calls one tool."""
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": call_id, "type": "function", "function": {"name": name, "arguments": raw}}
        ],
    }


def text(content: str) -> dict[str, Any]:
    """A scripted assistant turn with plain text."""
    return {"role": "assistant", "content": content}


def raw_body(body: str) -> dict[str, Any]:
    """A scripted 200 reply whose body is exactly `body` (not JSON, or JSON of any shape)."""
    return {"__raw__": body}


def http_error(status: int, message: str = "scripted failure") -> dict[str, Any]:
    return {"__status__": status, "error": {"message": message, "type": "server_error"}}


class ScriptedModelServer:
    def __init__(self) -> None:
        self.script: deque[Scripted] = deque()
        self.requests: list[dict[str, Any]] = []
        self.overruns = 0
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def _send(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    self._send(
                        200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]}
                    )
                else:
                    self._send(404, {"error": {"message": "not found"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                request = json.loads(self.rfile.read(length) or b"{}")
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                with server._lock:
                    server.requests.append(request)
                    step = server.script.popleft() if server.script else None
                    if step is None:
                        server.overruns += 1
                if step is None:
                    self._send(
                        500,
                        {
                            "error": {
                                "message": "called more often than scripted",
                                "type": "script_overrun",
                            }
                        },
                    )
                    return
                message = step(request) if callable(step) else step
                if "__raw__" in message:
                    data = str(message["__raw__"]).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                if "__status__" in message:
                    self._send(int(message["__status__"]), {"error": message["error"]})
                    return
                finish = "tool_calls" if message.get("tool_calls") else "stop"
                self._send(
                    200,
                    {
                        "id": f"chatcmpl-{len(server.requests)}",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": request.get("model", "scripted"),
                        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                    },
                )

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def play(self, *steps: Scripted) -> ScriptedModelServer:
        self.script.extend(steps)
        return self

    def start(self) -> ScriptedModelServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def assert_done(self) -> None:
        assert self.overruns == 0, f"the model was called {self.overruns} time(s) beyond the script"
        assert not self.script, f"{len(self.script)} scripted reply(ies) were never requested"
