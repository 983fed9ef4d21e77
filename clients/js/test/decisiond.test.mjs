// The browser client's pure parts (clients/js/decisiond.js), one test per rule; the
// browser itself is exercised by tests/browser (the preview page in Chromium).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  buildDecisionRequest, customEventNames, decide, DecisionError, describeCode, nativeView, readDecisionReply,
  readItems, render, safeUrl, sendTracking, trackingUrls, ViewabilityClock, VERSION_HEADER,
} from '../decisiond.js';

const T = 'https://ads.example/v1/tracking?t=';
const creative = {
  contents: [
    { key: 'title', value: 'Fly <b>now</b>', type: 'text' },
    { key: 'image', value: 'https://cdn.example/a.jpg', type: 'image' },
    { key: 'logo', value: 'javascript:alert(1)', type: 'image/png' },
    { key: 'landing', value: 'https://x.example', type: 'url' },
    { key: 'stars', value: '4', type: 'rating-v9' },
  ],
  advertiser: { id: 'advertiser_1', name: 'Acme', logoUrl: 'data:image/png;base64,AAAA', futureMember: 1 },
  tracking: {
    impressions: [{ key: 'impression', value: `${T}imp` }],
    clicks: [{ key: 'click', value: `${T}click` }],
    custom: [{ key: 'add_to_cart', value: `${T}cart` }, { key: 7, value: 'x' }, null],
    heartbeats: [{ key: 'beat', value: `${T}beat` }],
  },
  metadata: { adId: 'ad_1' },
  somethingNew: { nested: true },
};

const headers = (map) => (name) => map[name] ?? null;

test('a decision is a POST to /v1/decision with the version header and Accept-Language', () => {
  const { url, init } = buildDecisionRequest(['home_top', { key: 'side', count: 2 }], {
    baseUrl: 'https://ads.example/', version: '2025-01-01', language: 'fr-CH, fr;q=0.9', user: { id: 'u1' },
  });
  assert.equal(url, 'https://ads.example/v1/decision');
  assert.equal(init.method, 'POST');
  assert.equal(init.headers['Content-Type'], 'application/json');
  assert.equal(init.headers[VERSION_HEADER], '2025-01-01');
  assert.equal(init.headers['Accept-Language'], 'fr-CH, fr;q=0.9');
  assert.equal(init.credentials, 'omit');
  assert.deepEqual(JSON.parse(init.body), { placements: [{ key: 'home_top' }, { key: 'side', count: 2 }], user: { id: 'u1' } });
});

test('without a language the browser languages are sent, best first', () => {
  const { init } = buildDecisionRequest(['p'], { navigator: { languages: ['de-CH', 'de', 'en'] } });
  assert.equal(init.headers['Accept-Language'], 'de-CH, de;q=0.9, en;q=0.8');
  assert.equal(init.headers[VERSION_HEADER], '2025-11-01');
});

test('no placements is refused before any request', () => {
  assert.throws(() => buildDecisionRequest([], {}), TypeError);
});

test('a 200 reply gives its placements, warnings and version headers; unknown members are ignored', () => {
  const reply = readDecisionReply(200, headers({ 'X-Decision-Version': '2025-11-01', 'X-API-Deprecated': 'true', Sunset: 'Sun, 01 Nov 2026 00:00:00 GMT' }), {
    success: true,
    data: [{ placement: 'home_top', creatives: [creative, null], extra: 1 }, 'junk'],
    errors: null,
    warnings: [{ code: 20001, message: 'no language', details: {} }, { code: 29999, message: 'new', details: null }],
    brandNewMember: [],
  });
  assert.equal(reply.placements.length, 1);
  assert.equal(reply.placements[0].creatives.length, 1);
  assert.equal(reply.version, '2025-11-01');
  assert.equal(reply.deprecated, true);
  assert.deepEqual(reply.warnings.map((w) => [w.code, w.kind, w.known]), [[20001, 'language_missing', true], [29999, 'warning', false]]);
});

test('an error reply throws DecisionError with every error; unknown codes are generic', () => {
  assert.throws(
    () => readDecisionReply(503, headers({ 'Retry-After': '1' }), { success: false, errors: [{ code: 10098, message: 'shed' }] }),
    (e) => e instanceof DecisionError && e.status === 503 && e.retryAfterS === 1 && e.errors[0].kind === 'overloaded',
  );
  assert.throws(
    () => readDecisionReply(422, headers({}), { success: false, errors: [{ code: 10013, message: 'count', details: { field: 'placements[0].count' } }, { code: 10777, message: '?' }] }),
    (e) => e.errors[0].kind === 'invalid_request' && e.errors[0].details.field === 'placements[0].count' &&
      e.errors[1].kind === 'error' && e.errors[1].known === false,
  );
  assert.throws(() => readDecisionReply(502, headers({}), undefined), (e) => e instanceof DecisionError && e.errors.length === 0);
});

test('describeCode names known codes and treats the rest as generic', () => {
  assert.deepEqual(describeCode(10043), { code: 10043, kind: 'version_sunset', known: true });
  assert.equal(describeCode(12345).kind, 'error');
  assert.equal(describeCode('10043').known, false);
  assert.deepEqual(readItems('not an array'), []);
});

test('decide() fetches, hands warnings to onWarning and goes on', async () => {
  const calls = [];
  const warnings = [];
  const fetch = async (url, init) => {
    calls.push({ url, init });
    return {
      status: 200,
      headers: { get: (n) => (n === VERSION_HEADER ? '2025-11-01' : null) },
      json: async () => ({ success: true, data: [{ placement: 'p', creatives: [] }], errors: null, warnings: [{ code: 20003, message: 'unknown' }] }),
    };
  };
  const decision = await decide(['p'], { baseUrl: 'http://x', language: 'en', fetch, onWarning: (w) => warnings.push(w.kind) });
  assert.equal(calls.length, 1);
  assert.equal(decision.placements[0].placement, 'p');
  assert.deepEqual(warnings, ['unknown_placement']);
});

test('tracking URLs are read by list and key; malformed items and unknown lists are skipped', () => {
  assert.deepEqual(trackingUrls(creative, 'impressions'), [`${T}imp`]);
  assert.deepEqual(trackingUrls(creative, 'custom', 'add_to_cart'), [`${T}cart`]);
  assert.deepEqual(trackingUrls(creative, 'custom', 'nope'), []);
  assert.deepEqual(trackingUrls({ tracking: { impressions: null } }, 'impressions'), []);
  assert.deepEqual(trackingUrls({}, 'clicks'), []);
  assert.deepEqual(customEventNames(creative), ['add_to_cart']);
});

test('only text and image items are drawn; non-http URLs never reach an attribute', () => {
  const view = nativeView(creative);
  assert.deepEqual(view.texts, [{ key: 'title', value: 'Fly <b>now</b>' }]);
  assert.deepEqual(view.images, [{ key: 'image', url: 'https://cdn.example/a.jpg' }]);
  assert.equal(view.advertiser.logoUrl, null);
  assert.equal(view.clickUrl, `${T}click`);
  assert.equal(safeUrl('javascript:alert(1)'), null);
  assert.equal(safeUrl('/relative'), null);
  assert.equal(safeUrl('http://a.example/x?y=1'), 'http://a.example/x?y=1');
});

test('tracking calls use sendBeacon where there is one, else fetch keepalive', () => {
  const beacons = [];
  assert.ok(sendTracking('u1', { navigator: { sendBeacon: (u) => beacons.push(u) > 0 } }));
  assert.deepEqual(beacons, ['u1']);
  const fetched = [];
  const fetch = (u, init) => { fetched.push([u, init.keepalive, init.mode]); return Promise.resolve(); };
  assert.ok(sendTracking('u2', { navigator: { sendBeacon: () => false }, fetch }));
  assert.ok(sendTracking('u3', { navigator: {}, fetch }));
  assert.deepEqual(fetched, [['u2', true, 'no-cors'], ['u3', true, 'no-cors']]);
  assert.equal(sendTracking('u4', {}), false);
});

// Fake timers: the clock under test sees only setTimer/clearTimer.
function fakeTimers() {
  let now = 0;
  let next = 1;
  const pending = new Map();
  return {
    setTimer: (fn, ms) => { pending.set(next, { at: now + ms, fn }); return next++; },
    clearTimer: (id) => pending.delete(id),
    advance(ms) {
      now += ms;
      for (const [id, t] of [...pending]) if (t.at <= now) { pending.delete(id); t.fn(); }
    },
  };
}

test('an impression needs half the ad in view for one continuous second', () => {
  const timers = fakeTimers();
  let fired = 0;
  const clock = new ViewabilityClock({ onViewable: () => fired++, ...timers });
  clock.update(0.3);
  timers.advance(5000);
  assert.equal(fired, 0, 'less than half never counts');
  clock.update(0.6);
  timers.advance(999);
  assert.equal(fired, 0);
  clock.update(0.4);
  timers.advance(500);
  clock.update(0.5);
  timers.advance(999);
  assert.equal(fired, 0, 'a drop below half restarts the second');
  timers.advance(1);
  assert.equal(fired, 1);
  clock.update(0.2);
  clock.update(1);
  timers.advance(5000);
  assert.equal(fired, 1, 'once per creative');
});

test('a hidden page stops the count', () => {
  const timers = fakeTimers();
  let fired = 0;
  const clock = new ViewabilityClock({ onViewable: () => fired++, ...timers });
  clock.update(1);
  timers.advance(600);
  clock.setPageVisible(false);
  timers.advance(2000);
  assert.equal(fired, 0);
  clock.setPageVisible(true);
  timers.advance(999);
  assert.equal(fired, 0);
  timers.advance(1);
  assert.equal(fired, 1);
});

test('a ratio a hair under half from fractional pixels counts as half', () => {
  const timers = fakeTimers();
  let fired = 0;
  new ViewabilityClock({ onViewable: () => fired++, ...timers }).update(0.4999);
  timers.advance(1000);
  assert.equal(fired, 1);
});

// A DOM just big enough for render(): innerHTML throws, so any use of it fails the test.
function fakeDocument() {
  const listeners = new Map();
  const doc = {
    visibilityState: 'visible',
    createElement(tag) {
      const node = {
        tagName: tag.toUpperCase(), ownerDocument: doc, children: [], dataset: {}, className: '', textContent: '',
        append(...kids) { this.children.push(...kids); },
        replaceChildren(...kids) { this.children = kids; },
      };
      Object.defineProperty(node, 'innerHTML', { set() { throw new Error('innerHTML used'); } });
      return node;
    },
    addEventListener: (type, fn) => listeners.set(type, fn),
    removeEventListener: (type) => listeners.delete(type),
  };
  return doc;
}

test('render() draws with textContent, links to the click URL, fires the impression once when viewable', () => {
  const doc = fakeDocument();
  const container = doc.createElement('div');
  const timers = fakeTimers();
  let observed = null;
  const env = {
    setTimeout: timers.setTimer, clearTimeout: timers.clearTimer,
    IntersectionObserver: class { constructor(cb) { observed = cb; } observe() {} disconnect() {} },
  };
  const sent = [];
  const handle = render(creative, container, { env, send: (u) => sent.push(u) });
  const root = container.children[0];
  assert.equal(root.tagName, 'A');
  assert.equal(root.href, `${T}click`);
  const title = root.children.find((c) => c.dataset.key === 'title');
  assert.equal(title.textContent, 'Fly <b>now</b>');
  assert.equal(root.children.filter((c) => c.tagName === 'IMG').length, 1);
  observed([{ isIntersecting: true, intersectionRatio: 0.8 }]);
  timers.advance(1000);
  observed([{ isIntersecting: true, intersectionRatio: 0.8 }]);
  timers.advance(1000);
  assert.deepEqual(sent, [`${T}imp`]);
  assert.equal(handle.impressed, true);
  assert.equal(handle.track('add_to_cart'), true);
  assert.equal(handle.track('unknown_event'), false);
  assert.deepEqual(sent, [`${T}imp`, `${T}cart`]);
  handle.destroy();
});

test('render() leaves video creatives to a VAST player', () => {
  const doc = fakeDocument();
  assert.equal(render({ delivery: 'vast_xml', vast: {} }, doc.createElement('div'), { env: {} }), null);
});
