"""A Plant Store written with Python's standard library alone: http.server and json.

Written as a careful team writes one: a ThreadingHTTPServer whose handler checks the bearer
token, then reads and validates the body as the contract (openapi.yaml) says, stores the plant
(a repeated id replaces it) and answers it with the id exact.

What it keeps of Python's defaults, because the contract allows them: HTTP/1.0 (every answer
closes its connection), the Server and Date headers, json.loads on the body's bytes (which
accepts NaN and Infinity - an id that is one is still no integer - detects a byte order mark and
UTF-16, and decodes encoded surrogates with "surrogatepass"), json.dumps' ASCII escapes and
spaces, one log line per request on stderr. What it changes, because the contract demands it:
numbers are parsed as int and Decimal, so 1.0 and 1e2 are integers and an int64 id stays exact;
http.server's HTML error pages become the contract's Errors.

Usage: plant_store.py --token TOKEN [--defect NAME]; prints "listening on PORT" when it listens.
A defect makes it one of the faulty implementations of test/frameworks/, each one line written
the way such bugs are.
"""

import argparse
import hmac
import json
import re
import sys
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
# RFC 6750, section 2.1: the scheme in any case, one or more spaces, one b64token.
BEARER = re.compile(r"Bearer +([A-Za-z0-9\-._~+/]+=*)", re.ASCII | re.IGNORECASE)

DEFECTS = {
    "token-prefix": "the token is compared with TOKEN.startswith(presented): any prefix of it passes",
    "byte-order-mark": "answers are encoded with 'utf-8-sig', which writes a byte order mark first",
    "backtracking-name": "names are classified for the search index with re.fullmatch(r'(\\w+\\s?)*', name): a long word ending in '!' backtracks for ever",
    "int64-bit-length": "the id's range is checked with id.bit_length() > 63, which refuses -2^63",
    "keep-alive-unread-body": "protocol_version is set to HTTP/1.1 for keep-alive, but a refused request's body is never read: it stays on the connection and is read as the next request",
}


class Invalid(Exception):
    """A request the contract calls invalid: answered 400 with an Error."""


def integer(value):
    """The integer a JSON number denotes, or None: JSON Schema counts 1.0 and 1e2 as integers."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, Decimal) and value.is_finite() and value == value.to_integral_value():
        return value
    return None


def read_plant(value, defect):
    if not isinstance(value, dict):
        raise Invalid("body: must be a JSON object (a NewPlant)")
    if "name" not in value:
        raise Invalid("name: is required")
    name = value["name"]
    if not isinstance(name, str):
        raise Invalid("name: must be a string")
    if "id" not in value:
        raise Invalid("id: is required")
    number = integer(value["id"])
    if number is None:
        raise Invalid("id: must be an integer")
    # Compared before int() so that 1e400 is not turned into a 400-digit int first.
    if defect == "int64-bit-length":
        if int(number).bit_length() > 63:
            raise Invalid("id: must be an int64")
    elif not INT64_MIN <= number <= INT64_MAX:
        raise Invalid("id: must be an int64")
    plant = {"name": name, "id": int(number)}
    if "tag" in value:
        if not isinstance(value["tag"], str):
            raise Invalid("tag: must be a string")
        plant["tag"] = value["tag"]
    return plant


def make_handler(token, defect):
    plants = {}
    search_index = {"words": set(), "full-text": set()}

    class PlantStoreHandler(BaseHTTPRequestHandler):
        if defect == "keep-alive-unread-body":
            protocol_version = "HTTP/1.1"

        def answer(self, status, body, headers=()):
            text = json.dumps(body).encode("utf-8-sig" if defect == "byte-order-mark" else "utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(text)))
            for name, value in headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(text)

        def send_error(self, code, message=None, explain=None):
            # http.server's own refusals (a bad request line, a header too long) as Errors too.
            self.close_connection = True
            self.answer(code, {"error": code, "message": message or self.responses.get(code, ("error",))[0]})

        def authenticated(self):
            authorization = self.headers.get("Authorization")
            if authorization is None:
                self.answer(401, {"error": 401, "message": "authorization: missing bearer credentials"}, [("WWW-Authenticate", 'Bearer realm="plants"')])
                return False
            # http.server hands the value over with trailing whitespace, which is not part of it (RFC 9110, section 5.5).
            match = BEARER.fullmatch(authorization.strip(" \t"))
            presented = match.group(1) if match else None
            if defect == "token-prefix":
                accepted = presented is not None and token.startswith(presented)
            else:
                accepted = presented is not None and hmac.compare_digest(presented.encode(), token.encode())
            if not accepted:
                self.answer(401, {"error": 401, "message": "authorization: bearer token not accepted"}, [("WWW-Authenticate", 'Bearer realm="plants", error="invalid_token"')])
            return accepted

        def read_body(self):
            # http.server leaves the body to the handler: a chunked one (RFC 9112, section 7.1) too.
            if "chunked" not in (self.headers.get("Transfer-Encoding") or "").lower():
                return self.rfile.read(int(self.headers.get("Content-Length") or 0))
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()

        def refuse_method(self):
            # http.server answers a method without a do_ handler 501; the path supports POST only (RFC 9110, section 15.5.6).
            self.read_body()
            self.answer(405, {"error": 405, "message": f"method: {self.command} is not allowed"}, [("Allow", "POST")])

        do_GET = do_PUT = do_DELETE = do_PATCH = refuse_method

        def do_HEAD(self):
            self.answer(405, {"error": 405, "message": "method: HEAD is not allowed"}, [("Allow", "POST")])

        def do_POST(self):
            if self.path.split("?", 1)[0] != "/plants":
                self.answer(404, {"error": 404, "message": "not found"})
                return
            if not self.authenticated():
                return
            body = self.read_body()
            try:
                if self.headers.get_content_type() != "application/json":
                    raise Invalid("content-type: must be application/json")
                try:
                    value = json.loads(body, parse_float=Decimal)
                except (ValueError, RecursionError) as error:  # JSONDecodeError, UnicodeDecodeError, an int over 4300 digits, nesting deeper than the interpreter recurses
                    raise Invalid(f"malformed JSON: {error}") from error
                plant = read_plant(value, defect)
            except Invalid as error:
                self.answer(400, {"error": 400, "message": str(error)})
                return
            plants[plant["id"]] = plant
            if defect == "backtracking-name":
                # Names of plain words separated by single spaces go to the word index, the rest to the full-text one.
                search_index["words" if re.fullmatch(r"(\w+\s?)*", plant["name"]) else "full-text"].add(plant["id"])
            self.answer(200, plant)

    return PlantStoreHandler


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--token", required=True)
    parser.add_argument("--defect", choices=sorted(DEFECTS))
    options = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(options.token, options.defect))
    server.daemon_threads = True
    print(f"listening on {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
