// decisiond browser client: ask for a decision, render native creatives, report what the
// viewer saw and did. One dependency-free ES module; docs in README.md beside it.
//
// Tolerant reader (docs/versions-and-languages.md, docs/errors.md): members this file does not use
// are never read, unknown error and warning codes are treated as generic, content items of
// unknown types and tracking items of unknown kinds are skipped, never an error.
//
// Server strings reach the DOM only through textContent and URL-checked attributes
// (href, src): never innerHTML, so a catalog cannot inject markup or script.

export const DEFAULT_VERSION = '2025-11-01';
export const VERSION_HEADER = 'X-Decision-Version';

// The MRC viewable-impression rule for display ads: at least half of the ad's pixels in
// view for one continuous second.
export const VIEWABLE_RATIO = 0.5;
export const VIEWABLE_MS = 1000;
// Browsers report a ratio computed from fractional pixels: an ad exactly half in view can
// come as 0.4999. A thousandth of the ad is well below a pixel row of any real creative.
const RATIO_TOLERANCE = 1e-3;

// Codes a client may act on; any other code is generic (docs/errors.md: "a client treats an
// unknown code as a generic error, and logs an unknown warning and goes on").
const KNOWN_CODES = new Map([
  [10001, 'invalid_json'],
  [10002, 'unsupported_media_type'],
  [10003, 'body_too_large'],
  [10042, 'bad_version'],
  [10043, 'version_sunset'],
  [10098, 'overloaded'],
  [10099, 'internal'],
  [20001, 'language_missing'],
  [20002, 'version_deprecated'],
  [20003, 'unknown_placement'],
  [20004, 'language_fallback'],
]);

// { code, kind, known }: kind is 'invalid_request' for any 422 code (10010-10029), the
// table's name for a known code, else 'error' (or 'warning' for codes from 20000).
export function describeCode(code) {
  const n = typeof code === 'number' ? code : Number.NaN;
  if (KNOWN_CODES.has(n)) return { code: n, kind: KNOWN_CODES.get(n), known: true };
  if (n >= 10010 && n < 10030) return { code: n, kind: 'invalid_request', known: true };
  return { code: n, kind: n >= 20000 && n < 30000 ? 'warning' : 'error', known: false };
}

// The error or warning items of an envelope, each { code, message, details, kind, known };
// anything that is not an array gives [] and items that are not objects are skipped.
export function readItems(items) {
  if (!Array.isArray(items)) return [];
  const out = [];
  for (const item of items) {
    if (item === null || typeof item !== 'object') continue;
    const described = describeCode(item.code);
    out.push({
      code: described.code,
      kind: described.kind,
      known: described.known,
      message: typeof item.message === 'string' ? item.message : '',
      details: item.details !== null && typeof item.details === 'object' ? item.details : {},
    });
  }
  return out;
}

export class DecisionError extends Error {
  constructor(status, errors, retryAfterS) {
    const first = errors[0];
    super(first ? `decision refused (${status}): ${first.code} ${first.message}` : `decision failed (${status})`);
    this.name = 'DecisionError';
    this.status = status;
    this.errors = errors;
    this.retryAfterS = retryAfterS;  // seconds, or null
  }
}

// Placements may be given as keys ("home_top") or as request items ({key, count, ...}).
function placementItem(p) {
  return typeof p === 'string' ? { key: p } : p;
}

function trimSlash(url) {
  return String(url ?? '').replace(/\/+$/, '');
}

// The fetch() arguments of a decision: { url, init }. context: { baseUrl, version, language,
// user, device, app, signal }. language: an Accept-Language value (default: the browser's
// navigator.languages, which the browser sends anyway, made explicit).
export function buildDecisionRequest(placements, context = {}) {
  if (!Array.isArray(placements) || placements.length === 0) {
    throw new TypeError('decide(): placements must be a non-empty array');
  }
  const body = { placements: placements.map(placementItem) };
  for (const member of ['user', 'device', 'app']) {
    if (context[member] !== undefined && context[member] !== null) body[member] = context[member];
  }
  const headers = {
    'Content-Type': 'application/json',
    [VERSION_HEADER]: context.version ?? DEFAULT_VERSION,
  };
  const language = context.language ?? browserLanguages(context.navigator);
  if (language) headers['Accept-Language'] = language;
  const init = { method: 'POST', headers, body: JSON.stringify(body), credentials: 'omit', mode: 'cors' };
  if (context.signal) init.signal = context.signal;
  return { url: `${trimSlash(context.baseUrl)}/v1/decision`, init };
}

// "fr-CH, fr;q=0.9, en;q=0.8" from navigator.languages; '' when unknown.
export function browserLanguages(nav = globalThis.navigator) {
  const list = nav && Array.isArray(nav.languages) ? nav.languages.slice(0, 5) : [];
  return list.map((tag, i) => (i === 0 ? tag : `${tag};q=${(1 - i * 0.1).toFixed(1)}`)).join(', ');
}

// Reads a decision reply: { placements, warnings, version, deprecated, sunset } for a
// success, else throws DecisionError. getHeader(name) reads a reply header (null when
// absent); body is the parsed JSON, or undefined when it was not JSON.
export function readDecisionReply(status, getHeader, body) {
  const retry = Number.parseInt(getHeader('Retry-After') ?? '', 10);
  const retryAfterS = Number.isFinite(retry) ? retry : null;
  const envelope = body !== null && typeof body === 'object' ? body : {};
  if (status !== 200 || envelope.success !== true) {
    throw new DecisionError(status, readItems(envelope.errors), retryAfterS);
  }
  const placements = [];
  for (const item of Array.isArray(envelope.data) ? envelope.data : []) {
    if (item === null || typeof item !== 'object') continue;
    placements.push({
      placement: typeof item.placement === 'string' ? item.placement : '',
      creatives: Array.isArray(item.creatives) ? item.creatives.filter((c) => c !== null && typeof c === 'object') : [],
    });
  }
  return {
    placements,
    warnings: readItems(envelope.warnings),
    version: getHeader(VERSION_HEADER),
    deprecated: getHeader('X-API-Deprecated') === 'true',
    sunset: getHeader('Sunset'),
  };
}

// POST {baseUrl}/v1/decision. Resolves to readDecisionReply()'s result; rejects with a
// DecisionError (status, errors with known/kind, retryAfterS) or the fetch's own error.
// Warnings are handed to context.onWarning (default console.warn) and the decision goes on.
export async function decide(placements, context = {}) {
  const { url, init } = buildDecisionRequest(placements, context);
  const fetchFn = context.fetch ?? globalThis.fetch;
  const reply = await fetchFn(url, init);
  let body;
  try {
    body = await reply.json();
  } catch {
    body = undefined;
  }
  const decision = readDecisionReply(reply.status, (name) => reply.headers.get(name), body);
  const onWarning = context.onWarning ?? ((w) => console.warn(`decisiond warning ${w.code}: ${w.message}`));
  for (const warning of decision.warnings) onWarning(warning);
  return decision;
}

// ---- Creatives ----

// The URLs of one tracking array, by item key: trackingUrls(creative, 'impressions'),
// trackingUrls(creative, 'custom', 'add_to_cart'). Items that are not {key, value} strings
// are skipped; a null or missing array is [].
export function trackingUrls(creative, list, key) {
  const tracking = creative && typeof creative.tracking === 'object' ? creative.tracking : null;
  const items = tracking && Array.isArray(tracking[list]) ? tracking[list] : [];
  const urls = [];
  for (const item of items) {
    if (item === null || typeof item !== 'object' || typeof item.value !== 'string') continue;
    if (key !== undefined && item.key !== key) continue;
    urls.push(item.value);
  }
  return urls;
}

// The custom event names a creative can report.
export function customEventNames(creative) {
  const names = [];
  const items = creative?.tracking?.custom;
  for (const item of Array.isArray(items) ? items : []) {
    if (item && typeof item.key === 'string' && typeof item.value === 'string') names.push(item.key);
  }
  return names;
}

export function isVideo(creative) {
  return creative !== null && typeof creative === 'object' && typeof creative.delivery === 'string';
}

// Only absolute http(s) URLs reach an attribute: a javascript: or data: URL in a catalog
// would otherwise run script or show anything. Returns the URL or null.
export function safeUrl(text) {
  if (typeof text !== 'string') return null;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

function isImageType(type) {
  return type === 'image' || (typeof type === 'string' && type.startsWith('image/'));
}

// What render() draws, as data: { texts: [{key, value}], images: [{key, url}], advertiser:
// {name, logoUrl}, clickUrl }. Content items of other types (url, number, media files, a
// type this client does not know) are not drawn.
export function nativeView(creative) {
  const texts = [];
  const images = [];
  for (const item of Array.isArray(creative?.contents) ? creative.contents : []) {
    if (item === null || typeof item !== 'object' || typeof item.key !== 'string' || typeof item.value !== 'string') {
      continue;
    }
    if (item.type === 'text') {
      texts.push({ key: item.key, value: item.value });
    } else if (isImageType(item.type)) {
      const url = safeUrl(item.value);
      if (url) images.push({ key: item.key, url });
    }
  }
  const advertiser = creative?.advertiser && typeof creative.advertiser === 'object' ? creative.advertiser : {};
  return {
    texts,
    images,
    advertiser: {
      name: typeof advertiser.name === 'string' ? advertiser.name : '',
      logoUrl: safeUrl(advertiser.logoUrl),
    },
    clickUrl: safeUrl(trackingUrls(creative, 'clicks', 'click')[0] ?? trackingUrls(creative, 'clicks')[0]),
  };
}

// ---- Calling tracking URLs ----

// Fire and forget: navigator.sendBeacon where there is one (it outlives the page, and the
// tracking endpoint takes POST for it), else fetch with keepalive, no-cors (the reply is not
// read). Returns whether the call was handed to the browser.
export function sendTracking(url, env = globalThis) {
  const nav = env.navigator;
  if (nav && typeof nav.sendBeacon === 'function') {
    try {
      if (nav.sendBeacon(url)) return true;
    } catch {
      // Some browsers throw on a URL they dislike; fall through to fetch.
    }
  }
  if (typeof env.fetch === 'function') {
    env.fetch(url, { method: 'GET', keepalive: true, mode: 'no-cors', credentials: 'omit', cache: 'no-store' })
      .catch(() => {});
    return true;
  }
  return false;
}

// The viewability clock of one ad, apart from the DOM so it can be tested: update(ratio)
// with each intersection ratio and setPageVisible(visible) with the page's visibility;
// onViewable runs once, after the ad has been at least `ratio` in view on a visible page
// for `ms` without a break. A drop below the ratio or a hidden page restarts the count.
export class ViewabilityClock {
  constructor({ ratio = VIEWABLE_RATIO, ms = VIEWABLE_MS, onViewable, setTimer = setTimeout, clearTimer = clearTimeout }) {
    this.ratio = ratio;
    this.ms = ms;
    this.onViewable = onViewable;
    this.setTimer = setTimer;
    this.clearTimer = clearTimer;
    this.timer = null;
    this.inView = false;
    this.pageVisible = true;
    this.done = false;
  }

  update(intersectionRatio) {
    this.inView = intersectionRatio + RATIO_TOLERANCE >= this.ratio;
    this.reconsider();
  }

  setPageVisible(visible) {
    this.pageVisible = visible;
    this.reconsider();
  }

  stop() {
    this.done = true;
    this.cancel();
  }

  reconsider() {
    if (this.done) return;
    if (this.inView && this.pageVisible) {
      if (this.timer === null) {
        this.timer = this.setTimer(() => {
          this.timer = null;
          this.done = true;
          this.onViewable();
        }, this.ms);
      }
    } else {
      this.cancel();
    }
  }

  cancel() {
    if (this.timer !== null) {
      this.clearTimer(this.timer);
      this.timer = null;
    }
  }
}

// ---- Rendering ----

function el(doc, tag, className) {
  const node = doc.createElement(tag);
  if (className) node.className = className;
  return node;
}

// Draws a native creative into element (its children replaced) and wires its tracking:
//   - the impression URLs are called once, when the ad has been viewable (VIEWABLE_RATIO
//     for VIEWABLE_MS on a visible page: IntersectionObserver and visibilitychange);
//   - the ad is a link to its click tracking URL, which redirects (302) to the landing page;
//   - handle.track(name) calls the custom event's URLs; false for a name the creative has not.
// options: { onImpression, onEvent(kind, name, url), target (link target), env (window) }.
// Returns the handle { root, impressed (bool), track(name), customEvents, destroy() }, or
// null for a video creative (render those with a VAST player).
export function render(creative, element, options = {}) {
  if (isVideo(creative)) return null;
  const env = options.env ?? globalThis;
  const doc = element.ownerDocument;
  const view = nativeView(creative);
  const send = options.send ?? ((url) => sendTracking(url, env));
  const onEvent = options.onEvent ?? (() => {});

  const root = el(doc, view.clickUrl ? 'a' : 'div', 'decisiond-ad');
  if (view.clickUrl) {
    root.href = view.clickUrl;
    root.rel = 'sponsored noopener';
    if (options.target) root.target = options.target;
  }
  const label = el(doc, 'span', 'decisiond-sponsor');
  label.textContent = view.advertiser.name ? `Sponsored · ${view.advertiser.name}` : 'Sponsored';
  root.append(label);
  const title = view.texts.find((t) => t.key === 'title');
  for (const image of view.images) {
    const img = el(doc, 'img', `decisiond-image decisiond-${image.key}`);
    img.src = image.url;
    img.alt = title ? title.value : '';
    img.loading = 'lazy';
    root.append(img);
  }
  for (const text of view.texts) {
    const node = el(doc, text.key === 'title' ? 'strong' : 'span', `decisiond-text decisiond-${text.key}`);
    node.dataset.key = text.key;
    node.textContent = text.value;
    root.append(node);
  }
  element.replaceChildren(root);

  const handle = {
    root,
    impressed: false,
    customEvents: customEventNames(creative),
    track(name) {
      const urls = trackingUrls(creative, 'custom', name);
      for (const url of urls) {
        send(url);
        onEvent('custom', name, url);
      }
      return urls.length > 0;
    },
    destroy() {
      clock.stop();
      observer?.disconnect();
      doc.removeEventListener('visibilitychange', onVisibility);
    },
  };

  const clock = new ViewabilityClock({
    onViewable() {
      handle.impressed = true;
      observer?.disconnect();
      doc.removeEventListener('visibilitychange', onVisibility);
      for (const url of trackingUrls(creative, 'impressions')) {
        send(url);
        onEvent('impression', 'impression', url);
      }
      options.onImpression?.(handle);
    },
    setTimer: (fn, ms) => env.setTimeout(fn, ms),
    clearTimer: (id) => env.clearTimeout(id),
  });
  const onVisibility = () => clock.setPageVisible(doc.visibilityState !== 'hidden');
  doc.addEventListener('visibilitychange', onVisibility);
  clock.setPageVisible(doc.visibilityState !== 'hidden');

  let observer = null;
  if (typeof env.IntersectionObserver === 'function') {
    observer = new env.IntersectionObserver(
      (entries) => {
        for (const entry of entries) clock.update(entry.isIntersecting ? entry.intersectionRatio : 0);
      },
      { threshold: [0, VIEWABLE_RATIO, 1] },
    );
    observer.observe(root);
  }
  // Without IntersectionObserver visibility cannot be measured: no impression is claimed.
  return handle;
}
