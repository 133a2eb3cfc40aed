// The long poll's worker: it makes the requests the page's change watch
// asks for (api.js) and posts back each answer's status and text. A
// request made here does not hold the page's virtual time, so a headless
// screenshot with --virtual-time-budget finishes while the page watches.
const running = new Map();

self.addEventListener('message', async (ev) => {
  const { id, path, headers, abort } = ev.data;
  if (abort) {
    const controller = running.get(id);
    if (controller) controller.abort();
    running.delete(id);
    return;
  }
  const controller = new AbortController();
  running.set(id, controller);
  try {
    const res = await fetch(path, { headers, cache: 'no-store', signal: controller.signal });
    self.postMessage({ id, status: res.status, text: await res.text() });
  } catch (err) {
    self.postMessage({ id, error: String(err) });
  } finally {
    running.delete(id);
  }
});
