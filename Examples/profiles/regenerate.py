#!/usr/bin/env python3
"""Rewrites sso.json and sso.signed.mobileconfig from sso.mobileconfig (standard library and the openssl command).

    python3 Examples/profiles/regenerate.py

The signature is made with the test signer of fixtures/profiles/keys (test-only keys): check it with
`ssokit profile check --profile Examples/profiles/sso.signed.mobileconfig --trust fixtures/profiles/keys/test-ca.crt`.
"""
import json
import plistlib
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
KEYS = HERE.parent.parent / "fixtures" / "profiles" / "keys"

profile = plistlib.loads((HERE / "sso.mobileconfig").read_bytes())
(HERE / "sso.json").write_text(json.dumps(profile, indent=2) + "\n")
subprocess.run(
    ["openssl", "cms", "-sign", "-nodetach", "-binary", "-md", "sha256", "-outform", "DER",
     "-in", str(HERE / "sso.mobileconfig"), "-out", str(HERE / "sso.signed.mobileconfig"),
     "-signer", str(KEYS / "signer.crt"), "-inkey", str(KEYS / "signer.key")], check=True)
