"""A stand-in InfluxDB 2 write endpoint for the tests: records each request
(method, path, query, headers, body) in DIR/req-N.json and DIR/req-N.body,
and answers from the script of statuses given (one per request, the last
one repeated): 204, or 500, 503 (retry later), or 400/401/404 with an
InfluxDB-style JSON error. Prints its port on stdout once it listens."""
import http.server
import json
import os
import sys
import urllib.parse

DIR = sys.argv[1]
STATUSES = [int(s) for s in sys.argv[2].split(",")]
n = 0


class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def do_POST(self):
        global n
        n += 1
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        u = urllib.parse.urlsplit(self.path)
        with open(os.path.join(DIR, "req-%d.body" % n), "wb") as f:
            f.write(body)
        with open(os.path.join(DIR, "req-%d.json" % n), "w") as f:
            json.dump({"method": self.command, "path": u.path,
                       "query": urllib.parse.parse_qs(u.query, keep_blank_values=True),
                       "raw_query": u.query,
                       "headers": {k.lower(): v for k, v in self.headers.items()}}, f)
        st = STATUSES[min(n - 1, len(STATUSES) - 1)]
        msg = b""
        if st >= 400:
            msg = json.dumps({"code": "invalid", "message": "test says %d" % st,
                              "error": "unable to parse 'bad line \"x\"': test says %d" % st}).encode()
        self.send_response(st)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(msg)))
        self.end_headers()
        self.wfile.write(msg)


s = http.server.HTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
