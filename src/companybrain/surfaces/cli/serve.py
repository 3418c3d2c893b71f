"""`brain serve`: the web pages and the JSON API (default http://127.0.0.1:8737).

On loopback it needs nothing; on any other address it refuses to start without an access
token (`--token` or BRAIN_WEB_TOKEN), and then every request needs it. `--background`
starts it detached (pid file in BRAIN_HOME) and returns once it answers; `--stop` stops it."""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import click

from companybrain.ask.engine import viewer_for
from companybrain.errors import ConfigError, InputError
from companybrain.graph.connection import Store
from companybrain.graph.server import make_home
from companybrain.surfaces.cli.context import CliState, pass_state

PID_FILE = "web.pid"
LOG_FILE = "web.log"
START_WAIT_S = 30.0
STOP_WAIT_S = 10.0
LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1", "[::1]"]


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}/"


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=8737,
    show_default=True,
    help="Port to listen on.",
)
@click.option(
    "--as",
    "as_person",
    default=None,
    metavar="PERSON",
    help="Answer every request as this person (their record access applies).",
)
@click.option(
    "--token",
    default=None,
    help="Access token every request must carry [env BRAIN_WEB_TOKEN]; required off loopback.",
)
@click.option("--background", is_flag=True, help="Start detached, print the URL and return.")
@click.option("--stop", is_flag=True, help="Stop the server started with --background.")
@pass_state
def serve_cmd(
    state: CliState,
    host: str,
    port: int,
    as_person: str | None,
    token: str | None,
    background: bool,
    stop: bool,
) -> None:
    """Serve the pages (Ask, Owners, Record, Add record, Board, Review, Graph) and the JSON
    API (`POST /api/ask` returns the answer object of `brain ask --json`; docs at /docs)."""
    home = state.settings.home
    if stop:
        click.echo(stop_background(home))
        return
    token = token or state.settings.web_token
    loopback = is_loopback(host)
    if not loopback and not token:
        raise ConfigError(
            f"--host {host} is not loopback: set an access token with --token or BRAIN_WEB_TOKEN"
        )
    # the pages only read (a request can never create a graph): a mistyped --graph is an
    # error naming it here, not an app whose every page is a 404; and so is a --as naming
    # no one (`--as ""` from an empty variable would have served everything to everyone)
    store = Store(state.settings)
    try:
        store.require_graph()
        if as_person is not None:
            viewer_for(store, as_person, "--as")  # as `brain mcp --as` checks it
    finally:
        store.close()
    if background:
        settings = state.settings
        started = start_background(
            home, settings.graph, host, port, as_person, token,
            durable=settings.durable, trace=settings.trace,
        )  # fmt: skip
        click.echo(started)
        return
    _check_port(host, port)
    import uvicorn

    from companybrain.surfaces.web import create_app

    app = create_app(
        state.settings, as_person, token=token, allowed_hosts=LOOPBACK_NAMES if loopback else None
    )
    click.echo(f"serving {_url(host, port)} (Ctrl-C stops it)", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=3)


def _check_port(host: str, port: int) -> None:
    problem = port_problem(host, port)
    if problem:
        raise InputError(
            f"--port {port}: {problem} (`brain serve --stop` stops the one started in the "
            "background from this data folder)"
        )


def port_problem(host: str, port: int) -> str | None:
    """Why a server could not listen on host:port, or None. Asked before starting: a
    server started in the background that could not bind was reported as serving when
    another program (another folder's `brain serve`) answered on that port instead."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        with socket.socket(family, kind, proto) as probe:
            # as uvicorn does: a port whose last connections are closing is free to take
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        reason = "it is already in use" if exc.errno == errno.EADDRINUSE else exc.strerror or exc
        return f"cannot listen on {_url(host, port)}: {reason}"
    return None


def _running(pid_file: Path) -> int | None:
    try:
        pid = int(pid_file.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass
    return pid if _is_web_server(pid, pid_file.parent) else None


def _is_web_server(pid: int, home: Path) -> bool:
    """A pid file outlives its server (killed, or the machine restarted): a pid the system
    has since given to another program is not ours to report as serving, nor to stop; nor
    is another data folder's server, named by a pid file copied with its folder."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return True  # no /proc: trust the pid
    if b"\x00-m\x00companybrain\x00serve\x00" not in cmdline:  # as start_background runs it
        return False
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\x00")
    except OSError:
        return True  # another user's: its command line is all there is to go by
    served = next((v[len(b"BRAIN_HOME=") :] for v in environ if v.startswith(b"BRAIN_HOME=")), None)
    return served is None or Path(os.fsdecode(served)).resolve() == home.resolve()


def start_background(
    home: Path,
    graph: str,
    host: str,
    port: int,
    as_person: str | None,
    token: str | None,
    *,
    durable: bool = False,
    trace: bool = False,
) -> str:
    """Start `brain serve` detached; return once it answers (or say why it did not)."""
    make_home(home)
    pid_file = home / PID_FILE
    running = _running(pid_file)
    if running:
        url = pid_file.read_text().split()[1] if len(pid_file.read_text().split()) > 1 else ""
        return f"already serving {url} (pid {running}); stop it with `brain serve --stop`"
    _check_port(host, port)  # else another server there would answer in our place
    args = [sys.executable, "-m", "companybrain", "serve", "--host", host, "--port", str(port)]
    if as_person:
        args += ["--as", as_person]
    env = dict(os.environ)
    env["BRAIN_HOME"] = str(home)
    env["BRAIN_GRAPH"] = graph
    for name, on in (("BRAIN_DURABLE", durable), ("BRAIN_TRACE", trace)):
        if on:  # `brain --durable serve --background`: the flag holds for the server too
            env[name] = "1"
    if token:
        env["BRAIN_WEB_TOKEN"] = token  # never on the command line, where `ps` shows it
    log = (home / LOG_FILE).open("ab")
    process = subprocess.Popen(
        args, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True
    )
    log.close()
    url = _url(host, port)
    pid_file.write_text(f"{process.pid} {url}\n")
    deadline = time.monotonic() + START_WAIT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pid_file.unlink(missing_ok=True)
            raise InputError(f"brain serve exited with {process.returncode}: see {home / LOG_FILE}")
        try:
            with urllib.request.urlopen(f"{url}favicon.ico", timeout=1):
                break
        except urllib.error.HTTPError:
            break  # it answers (a token is required)
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    else:
        return f"started pid {process.pid}, not answering yet at {url}: see {home / LOG_FILE}"
    return f"serving {url} (pid {process.pid}); stop it with `brain serve --stop`"


def stop_background(home: Path) -> str:
    pid_file = home / PID_FILE
    pid = _running(pid_file)
    if pid is None:
        pid_file.unlink(missing_ok=True)
        return "no background server is running"
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_WAIT_S
    while time.monotonic() < deadline and _running(pid_file):
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # our own child (started by this process): reap it
        time.sleep(0.1)
    if _running(pid_file):
        os.kill(pid, signal.SIGKILL)
    pid_file.unlink(missing_ok=True)
    return f"stopped the web server (pid {pid})"
