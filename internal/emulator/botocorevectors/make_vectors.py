"""Writes vectors.json: requests and short-term keys signed by botocore.

botocore (the AWS SDK for Python, under the AWS CLI and the official
token generators) is a SigV4 implementation independent of aws-sdk-go-v2.
TestBotocoreVectors replays these against the emulator's verifier, and
TestGenerateTokenMatchesBotocore remakes the keys with the provider's token
generator, so every go test checks both against botocore with nothing
installed. Regenerate (pip install botocore):

    python3 make_vectors.py > vectors.json
"""

import base64
import datetime
import json
import sys
from urllib.parse import urlencode

import botocore
import botocore.auth
from botocore.auth import SigV4Auth, SigV4QueryAuth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

AT = datetime.datetime(2026, 3, 4, 5, 6, 7)
botocore.auth.get_current_datetime = lambda: AT
ENDPOINT = "http://127.0.0.1:8080"
HOST = "127.0.0.1:8080"
LONG = Credentials("AKIDBOTOCOREVECTOR01", "botocore-vector-secret-0123456789")
SESSION = Credentials("ASIABOTOCOREVECTOR01", "botocore-session-secret-0123456789", "vector/session+token=")


def signed(name, creds, service, method, path, body="", content_type=None):
    headers = {"Content-Type": content_type} if content_type else {}
    req = AWSRequest(method=method, url=ENDPOINT + path, data=body, headers=headers)
    SigV4Auth(creds, service, "us-east-1").add_auth(req)
    return {"name": name, "service": service, "method": method, "path": path,
            "headers": dict(req.headers.items()), "body": body}


def token(name, creds, region, expires):
    req = AWSRequest(method="POST", url="https://%s/" % HOST, headers={"host": HOST},
                     params={"Action": "CallWithBearerToken"})
    SigV4QueryAuth(creds, "models", region, expires=expires).add_auth(req)
    raw = req.url.replace("https://", "", 1) + "&Version=1"
    return {"name": name, "region": region, "expires": expires,
            "token": "models-api-key-" + base64.b64encode(raw.encode()).decode()}


form = "application/x-www-form-urlencoded; charset=utf-8"
print(json.dumps({
    "botocore": botocore.__version__,
    "time": AT.strftime("%Y%m%dT%H%M%SZ"),
    "credentials": [
        {"access_key_id": LONG.access_key, "secret_access_key": LONG.secret_key},
        {"access_key_id": SESSION.access_key, "secret_access_key": SESSION.secret_key, "session_token": SESSION.token},
    ],
    "requests": [
        signed("identity Query POST", LONG, "identity", "POST", "/",
               urlencode({"Action": "CreateUser", "UserName": "boto-user", "Path": "/interop/", "Version": "2010-05-08"}), form),
        signed("identity Query POST, session credentials", SESSION, "identity", "POST", "/",
               urlencode({"Action": "GetUser", "UserName": "boto-user", "Version": "2010-05-08"}), form),
        signed("search GET with a query string", LONG, "search", "GET",
               "/2021-01-01/search/domain/demo/dryRun?loadDryRunConfig=true&dryRunId=0a1b2c3d-0000-4000-8000-000000000001"),
        signed("search POST with a JSON body", LONG, "search", "POST", "/2021-01-01/search/domain/demo/config",
               '{"DryRun": true, "DryRunMode": "Basic", "SnapshotOptions": {"AutomatedSnapshotStartHour": 3}}', "application/json"),
    ],
    "tokens": [
        token("long-term credentials, 15 minutes", LONG, "us-east-1", 900),
        token("session credentials, 12 hours", SESSION, "eu-west-1", 43200),
    ],
}, indent=1))
