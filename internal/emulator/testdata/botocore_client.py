"""Drives the emulator as botocore does, for interop_test.go.

Reads a JSON job on stdin and prints one JSON answer per call on stdout:

  {"endpoint": "http://127.0.0.1:PORT",
   "credentials": {"access_key_id": ..., "secret_access_key": ..., "session_token": ...},
   "calls": [
     {"kind": "query", "service": "identity", "region": "us-east-1",
      "params": {"Action": "CreateUser", ...}, "tamper": false},
     {"kind": "rest", "service": "search", "region": "us-east-1",
      "method": "POST", "path": "/2021-01-01/...", "body": "{...}"},
     {"kind": "token", "region": "us-east-1", "host": "...", "expires": 900,
      "time": "20260102T030405Z"}]}

"query" and "rest" calls are signed with botocore.auth.SigV4Auth and sent
with botocore's own HTTP session; "tamper" changes the body after signing.
"token" makes a short-term key the way the official token generators do
(botocore.auth.SigV4QueryAuth over POST /?Action=CallWithBearerToken,
scheme dropped, "&Version=1", base64, prefix); "time" pins the signing time.
"""

import base64
import datetime
import json
import sys
from urllib.parse import urlencode

import botocore.auth
from botocore.auth import SigV4Auth, SigV4QueryAuth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from botocore.httpsession import URLLib3Session


def send(session, request):
    resp = session.send(request.prepare())
    return {"status": resp.status_code, "body": resp.text}


def main():
    job = json.load(sys.stdin)
    c = job["credentials"]
    creds = Credentials(c["access_key_id"], c["secret_access_key"], c.get("session_token"))
    session = URLLib3Session()
    out = []
    for call in job["calls"]:
        kind = call["kind"]
        if kind == "token":
            if call.get("time"):
                at = datetime.datetime.strptime(call["time"], "%Y%m%dT%H%M%SZ")
                botocore.auth.get_current_datetime = lambda: at
            host = call["host"]
            req = AWSRequest(method="POST", url="https://%s/" % host, headers={"host": host},
                             params={"Action": "CallWithBearerToken"})
            SigV4QueryAuth(creds, "models", call["region"], expires=call["expires"]).add_auth(req)
            raw = req.url.replace("https://", "", 1) + "&Version=1"
            out.append({"token": "models-api-key-" + base64.b64encode(raw.encode()).decode()})
            continue
        if kind == "query":
            body = urlencode(call["params"])
            req = AWSRequest(method="POST", url=job["endpoint"] + "/", data=body,
                             headers={"Content-Type": "application/x-www-form-urlencoded; charset=utf-8"})
        else:
            body = call.get("body", "")
            headers = {"Content-Type": "application/json"} if body else {}
            req = AWSRequest(method=call["method"], url=job["endpoint"] + call["path"], data=body, headers=headers)
        SigV4Auth(creds, call["service"], call["region"]).add_auth(req)
        if call.get("tamper"):
            req.data = body.replace("a", "b", 1)
        out.append(send(session, req))
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
