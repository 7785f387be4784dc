#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A stand-in backend for prof agent's tests: records every POST it gets.

  receiver.py DIR [--port-file F] [--delay SECONDS] [--status CODE] [--otlp-reject N]

Listens on 127.0.0.1 (a port of the kernel's choosing, written to F), and
for each request writes DIR/NNNNNN.json: the method, path, query, headers,
and the body as the backend would take it apart:
  - Pyroscope (/ingest): the query parameters, and the multipart form's
    'profile' part saved as DIR/NNNNNN.pprof;
  - Parca (/profiles/writeraw): the JSON's labels, and each rawProfile
    decoded from base64 into DIR/NNNNNN-K.pprof;
  - OTLP/HTTP (/v1development/profiles): the request's protobuf, gunzipped
    when its Content-Encoding says gzip, as DIR/NNNNNN.otlp.
--delay holds each answer back (a slow backend); --status answers with
another code (a backend that refuses); --otlp-reject answers OTLP with a
partial success that rejected N profiles.
"""
import base64
import email.parser
import gzip
import email.policy
import json
import os
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

out = sys.argv[1]
args = sys.argv[2:]
opt = {}
while args:
    opt[args[0]] = args[1]
    args = args[2:]
delay = float(opt.get("--delay", "0"))
status = int(opt.get("--status", "200"))
lock = threading.Lock()
count = [len([f for f in os.listdir(out) if f.endswith(".json")])] if os.path.isdir(out) else [0]
os.makedirs(out, exist_ok=True)


class H(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(n)
        time.sleep(delay)
        with lock:
            count[0] += 1
            k = count[0]
        u = urllib.parse.urlsplit(self.path)
        rec = {"method": "POST", "path": u.path,
               "query": urllib.parse.parse_qs(u.query),
               "headers": {h.lower(): v for h, v in self.headers.items()},
               "status": status, "profiles": []}
        base = os.path.join(out, "%06d" % k)
        ctype = self.headers.get("Content-Type", "")
        if u.path.endswith("/ingest") and ctype.startswith("multipart/form-data"):
            msg = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
                b"Content-Type: " + ctype.encode() + b"\r\n\r\n" + body)
            for part in msg.iter_parts():
                name = part.get_param("name", header="content-disposition")
                data = part.get_payload(decode=True)
                if name == "profile":
                    open(base + ".pprof", "wb").write(data)
                    rec["profiles"].append(base + ".pprof")
                rec.setdefault("parts", []).append(name)
        elif u.path.endswith("/profiles/writeraw"):
            j = json.loads(body)
            rec["json"] = {"normalized": j.get("normalized"), "series": []}
            for i, s in enumerate(j["series"]):
                labels = {l["name"]: l["value"] for l in s["labels"]["labels"]}
                for m, smp in enumerate(s["samples"]):
                    raw = smp.get("rawProfile", smp.get("raw_profile"))
                    p = "%s-%d-%d.pprof" % (base, i, m)
                    open(p, "wb").write(base64.b64decode(raw))
                    rec["profiles"].append(p)
                rec["json"]["series"].append({"labels": labels})
        elif u.path.endswith("/v1development/profiles"):
            if self.headers.get("Content-Encoding", "") == "gzip":
                body = gzip.decompress(body)
            open(base + ".otlp", "wb").write(body)
            rec["profiles"].append(base + ".otlp")
        else:
            open(base + ".body", "wb").write(body)
        with open(base + ".json.tmp", "w") as f:
            json.dump(rec, f)
        os.rename(base + ".json.tmp", base + ".json")
        reply = b""
        rejected = int(opt.get("--otlp-reject", "0"))
        if u.path.endswith("/v1development/profiles") and rejected:
            # ExportProfilesServiceResponse{partial_success{rejected_profiles, error_message}}
            msg = b"too old"
            inner = bytes([0x08, rejected, 0x12, len(msg)]) + msg
            reply = bytes([0x0a, len(inner)]) + inner
        self.send_response(status)
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)


srv = ThreadingHTTPServer(("127.0.0.1", int(opt.get("--port", "0"))), H)
if "--port-file" in opt:
    with open(opt["--port-file"] + ".tmp", "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(opt["--port-file"] + ".tmp", opt["--port-file"])
srv.serve_forever()
