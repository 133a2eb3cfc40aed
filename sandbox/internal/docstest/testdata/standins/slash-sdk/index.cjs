// A stand-in for the official SDK: new SlashSDK({ apiKey, baseURL }) and a
// request method that sends the key in X-API-Key, as the SDK does.
class SlashSDK {
  constructor({ apiKey, baseURL }) {
    this.apiKey = apiKey;
    this.baseURL = String(baseURL).replace(/\/$/, '');
  }

  async request(method, path, { body, headers = {} } = {}) {
    const h = { 'X-API-Key': this.apiKey, ...headers };
    if (body !== undefined) h['Content-Type'] = 'application/json';
    const res = await fetch(this.baseURL + path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }
}

module.exports = { SlashSDK, default: SlashSDK };
