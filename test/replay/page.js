// Runs in headless Chromium after the browser bundle of coderline/replay (global `coderlineReplay`):
// replays each case of the page's JSON the way cases.ts's replayCase does in Node, and writes each
// case's events as JSON (a list of them) into #out, base64 of its UTF-8 bytes, which --dump-dom prints
// without escaping.
(() => {
  const out = document.getElementById('out');
  try {
    const cases = JSON.parse(document.getElementById('cases').textContent);
    const events = cases.map((testCase) => {
      let tick = 0;
      const clock = () => tick++;
      if (testCase.live) return coderlineReplay.replayLive(testCase.cli, coderlineReplay.parseRecording(testCase.text), { clock });
      return coderlineReplay.replay(testCase.cli, testCase.lines, { opts: testCase.opts, session: testCase.session, clock });
    });
    const bytes = new TextEncoder().encode(JSON.stringify(events.map((replayed) => JSON.stringify(replayed))));
    let binary = '';
    for (let start = 0; start < bytes.length; start += 0x8000) binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
    out.textContent = btoa(binary);
  } catch (error) {
    out.setAttribute('data-error', String(error && error.stack ? error.stack : error));
  }
})();
