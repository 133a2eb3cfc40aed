"""A stand-in for the official slash-sdk, which no registry CI reaches:
SlashSDK(api_key=, base_url=) and a request method that sends the key in
X-API-Key, as the SDK does."""
import json
import urllib.request


class SlashSDK:
    def __init__(self, api_key, base_url):
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")

    def request(self, method, path, body=None, headers=None):
        h = {"X-API-Key": self.api_key, **(headers or {})}
        data = None
        if body is not None:
            h["Content-Type"] = "application/json"
            data = json.dumps(body).encode()
        req = urllib.request.Request(self.base_url + path, data=data, headers=h, method=method)
        with urllib.request.urlopen(req, timeout=30) as res:
            text = res.read().decode()
        return json.loads(text) if text else None
