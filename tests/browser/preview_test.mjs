// browser.preview: the admin preview page (/ui) in Debian's headless Chromium, against the
// real decisiond binary. The page loads; a decision renders through the browser client; the
// ad in view is counted as one impression, and only once it has been at least half in view
// for a second; the ad below the fold, never scrolled to, is not counted; a click goes
// through the click tracking URL's 302 to the landing page; a video ad shows its VAST
// document and a player. Screenshots go to --out, and to docs/images with UPDATE_SCREENSHOTS=1.
//
// browser.preview_https (--tls): the same run over HTTPS only. decisiond serves the public
// routes on --tls-listen and nothing on plain HTTP (--listen=none), the admin plane and so
// /ui over TLS (--admin-tls), with an ECDSA P-256 leaf signed by a test CA the test makes.
// Chromium trusts that CA as a real machine would, through the NSS database of the HOME it
// is started with; a second Chromium whose NSS database lacks the CA must refuse the page.
//
//   node preview_test.mjs --decisiond build/decisiond --out build/tests/browser/screenshots \
//        [--docs docs/images] [--chromium /usr/bin/chromium] [--tls]
// Exit 0 passed, 1 failed, 77 skipped (no playwright-core or no Chromium; with --tls, no certutil).
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    decisiond: { type: 'string' },
    out: { type: 'string' },
    docs: { type: 'string' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
    tls: { type: 'boolean', default: false },
  },
});
const SKIP = 77;
const TOKEN = 'preview-test-token';

let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch {
  console.log('SKIP: playwright-core is not installed (tools/install-deps)');
  process.exit(SKIP);
}
if (!existsSync(args.chromium)) {
  console.log(`SKIP: no Chromium at ${args.chromium} (tools/install-deps installs Debian's chromium)`);
  process.exit(SKIP);
}
if (args.tls && spawnSync('certutil', ['-H'], { stdio: 'ignore' }).error) {
  console.log('SKIP: no certutil for Chromium\'s NSS database (tools/install-deps installs libnss3-tools)');
  process.exit(SKIP);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// The landing pages and images of the test catalog: an origin of its own, as an advertiser's.
function startLanding(port) {
  const hits = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url);
    if (req.url.startsWith('/landing')) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>landing</title><h1>Landed</h1>');
    } else if (req.url.startsWith('/image/')) {
      const hue = req.url.includes('b') ? 200 : 20;
      res.writeHead(200, { 'Content-Type': 'image/svg+xml' });
      res.end(`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="160"><rect width="400" height="160" fill="hsl(${hue},70%,55%)"/>` +
        '<text x="20" y="95" font-size="36" font-family="sans-serif" fill="#fff">creative image</text></svg>');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ server, hits })));
}

function catalog(landing) {
  const native = (id, placement, name, image) => ({
    id, advertiserId: 1, placementIds: [placement], templateId: 1, priority: 'standard', weight: 10, format: 'native',
    start: '2020-01-01T00:00:00Z', end: null,
    creatives: [{
      id: id + 1000,
      contents: { en: [
        { key: 'title', value: name, type: 'text' },
        { key: 'body', value: 'Rendered by the decisiond browser client: <b>no markup</b> from the server.', type: 'text' },
        { key: 'image', value: `${landing}/image/${image}`, type: 'image' },
        { key: 'cta', value: 'Book now', type: 'text' },
      ] },
      clickUrl: `${landing}/landing?ad=${id}`,
      customEvents: ['add_to_cart'],
    }],
  });
  return {
    revision: 'browser-preview-1',
    defaultLanguage: 'en',
    priorities: [{ key: 'standard', weight: 50 }],
    advertisers: [{ id: 1, name: 'Acme Air', legalName: 'Acme Air Ltd' }],
    templates: [{ id: 1, key: 'native_card', style: 'default' }, { id: 2, key: 'video_player', style: 'default' }],
    placements: [{ id: 7, key: 'home_top' }, { id: 8, key: 'article_inline' }, { id: 9, key: 'video_preroll' }],
    ads: [
      native(1, 7, 'Fly to Lisbon from €49', 'a'),
      native(2, 8, 'Below the fold: never seen', 'b'),
      {
        id: 3, advertiserId: 1, placementIds: [9], templateId: 2, priority: 'standard', weight: 10, format: 'video',
        start: '2020-01-01T00:00:00Z', end: null,
        creatives: [{
          id: 1003,
          contents: { en: [{ key: 'title', value: 'Acme Air: the Lisbon lounge', type: 'text' }] },
          clickUrl: `${landing}/landing?ad=3`,
          video: {
            delivery: 'vast_xml',
            mediaFiles: [{ url: `${landing}/media/lounge.mp4`, type: 'video/mp4', width: 1280, height: 720 }],
            duration: 30, aspectRatio: '16:9', skipOffset: '00:00:05',
          },
        }],
      },
    ],
  };
}

// A test CA (self-signed, CA:true) and a leaf it signs for 127.0.0.1 and localhost, both
// ECDSA P-256; the keys 0600, or decisiond refuses them.
function makeCertificates(dir) {
  const config = path.join(dir, 'openssl.cnf');
  writeFileSync(config, [
    '[req]', 'distinguished_name = dn', '[dn]',
    '[ca]', 'basicConstraints = critical,CA:true', 'keyUsage = critical,keyCertSign,cRLSign',
    'subjectKeyIdentifier = hash',
    '[leaf]', 'basicConstraints = critical,CA:false', 'keyUsage = critical,digitalSignature',
    'extendedKeyUsage = serverAuth', 'subjectAltName = IP:127.0.0.1,DNS:localhost',
    'subjectKeyIdentifier = hash', 'authorityKeyIdentifier = keyid', '',
  ].join('\n'));
  const files = {
    ca: path.join(dir, 'ca.pem'), caKey: path.join(dir, 'ca.key'),
    cert: path.join(dir, 'leaf.pem'), key: path.join(dir, 'leaf.key'),
  };
  const ecdsa = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2', '-config', config];
  execFileSync('openssl', ['req', '-x509', ...ecdsa, '-extensions', 'ca', '-subj', `/CN=${CA_NAME}`,
    '-keyout', files.caKey, '-out', files.ca], { stdio: 'pipe' });
  execFileSync('openssl', ['req', '-x509', ...ecdsa, '-extensions', 'leaf', '-subj', '/CN=localhost',
    '-CA', files.ca, '-CAkey', files.caKey, '-keyout', files.key, '-out', files.cert], { stdio: 'pipe' });
  chmodSync(files.caKey, 0o600);
  chmodSync(files.key, 0o600);
  return files;
}

// A HOME for Chromium: on Linux it reads the certificates a user trusts from the NSS
// database in $HOME/.pki/nssdb. With ca, the test CA is in it, trusted to issue server
// certificates ("C,,"); without, the database is there and empty.
function chromiumHome(dir, name, ca) {
  const home = path.join(dir, name);
  const nssdb = path.join(home, '.pki', 'nssdb');
  mkdirSync(nssdb, { recursive: true });
  execFileSync('certutil', ['-N', '--empty-password', '-d', `sql:${nssdb}`], { stdio: 'pipe' });
  if (ca) execFileSync('certutil', ['-A', '-t', 'C,,', '-n', 'decisiond-test-ca', '-i', ca, '-d', `sql:${nssdb}`], { stdio: 'pipe' });
  return home;
}

function startServer(binary, dir, ports, catalogPath, certificates) {
  const listeners = certificates
    ? ['--listen=none', `--tls-listen=127.0.0.1:${ports.tls}`, `--tls-cert=${certificates.cert}`,
      `--tls-key=${certificates.key}`, '--admin-tls', `--base-url=https://127.0.0.1:${ports.tls}`]
    : [`--listen=127.0.0.1:${ports.public}`, `--base-url=http://127.0.0.1:${ports.public}`];
  const child = spawn(binary, [
    ...listeners, `--admin-listen=127.0.0.1:${ports.admin}`, `--state-dir=${dir}`, `--catalog=${catalogPath}`,
    `--admin-token=${TOKEN}`, '--cores=2', '--events-flush=20ms',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const serving = new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (stderr.includes(' msg="serving ')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`decisiond exited ${code}: ${stderr}`)));
    setTimeout(() => reject(new Error(`decisiond did not serve within 20 s: ${stderr}`)), 20000);
  });
  return { child, serving };
}

// The admin plane's reply body, over TLS verified against the test CA in TLS mode (node's
// fetch takes no CA of its own).
function adminGet(pathname) {
  return new Promise((resolve, reject) => {
    const client = certificates ? https : http;
    const options = certificates ? { ca: readFileSync(certificates.ca) } : {};
    client.get(`${adminOrigin}${pathname}`, options, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { body += chunk; });
      res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`${pathname}: ${res.statusCode}`))));
    }).on('error', reject);
  });
}

// Sum of a counter family's series matching the labels, from /metrics (a read: no token needed).
async function counter(family, labels) {
  const text = await adminGet('/metrics');
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${family}{`) || !line.includes(labels)) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

async function waitFor(what, check, timeoutMs = 15000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const CA_NAME = 'decisiond test CA';
const dir = mkdtempSync(path.join(tmpdir(), 'decisiond-browser-'));
const ports = { public: await freePort(), tls: await freePort(), admin: await freePort() };
const landingPort = await freePort();
// The landing server stays plain HTTP on its own origin in both runs, as many advertisers'
// are: an https page may link to it (the click's 302 to it is a navigation, not mixed
// content), and 127.0.0.1 is a potentially trustworthy origin, so its images on the https
// page are not mixed content Chromium would block or upgrade either (seen: they load).
const landingOrigin = `http://127.0.0.1:${landingPort}`;
const scheme = args.tls ? 'https' : 'http';
const publicBase = `${scheme}://127.0.0.1:${args.tls ? ports.tls : ports.public}`;
const adminOrigin = `${scheme}://127.0.0.1:${ports.admin}`;
const testName = args.tls ? 'browser.preview_https' : 'browser.preview';
const landing = await startLanding(landingPort);
const catalogPath = path.join(dir, 'catalog.json');
writeFileSync(catalogPath, JSON.stringify(catalog(landingOrigin)));
const certificates = args.tls ? makeCertificates(dir) : null;
const server = startServer(args.decisiond, dir, ports, catalogPath, certificates);
let browser;
let failed = false;

const out = args.out ?? path.join(dir, 'screenshots');
mkdirSync(out, { recursive: true });
async function screenshot(page, name) {
  const file = path.join(out, name);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file, fullPage: false });
  // docs/images shows the plain run's pages only.
  if (process.env.UPDATE_SCREENSHOTS === '1' && args.docs && !args.tls) {
    mkdirSync(args.docs, { recursive: true });
    copyFileSync(file, path.join(args.docs, name));
    console.log(`updated ${path.join(args.docs, name)}`);
  }
}

try {
  await server.serving;
  const launch = (home) => chromium.launch({
    executablePath: args.chromium, headless: true, args: ['--no-sandbox'],
    ...(home ? { env: { ...process.env, HOME: home } } : {}),
  });
  if (args.tls) {
    // The trust is the NSS database's and nothing else's: a Chromium whose database lacks
    // the test CA refuses the very page the run below loads.
    const untrusting = await launch(chromiumHome(dir, 'home-without-ca', null));
    try {
      const probe = await untrusting.newPage();
      await assert.rejects(probe.goto(`${adminOrigin}/ui`), /net::ERR_CERT_AUTHORITY_INVALID/);
      await assert.rejects(probe.goto(`${publicBase}/v1/decision`), /net::ERR_CERT_AUTHORITY_INVALID/);
    } finally {
      await untrusting.close();
    }
  }
  browser = await launch(args.tls ? chromiumHome(dir, 'home-with-ca', certificates.ca) : null);
  // Headless Chromium names itself HeadlessChrome, a declared robot (docs/invalid-traffic.md),
  // whose decisions get no creatives: the page is an operator's, in an ordinary browser.
  const headlessAgent = await browser.newPage().then(async (probe) => {
    const agent = await probe.evaluate(() => navigator.userAgent);
    await probe.close();
    return agent;
  });
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    userAgent: headlessAgent.replace('HeadlessChrome', 'Chrome'),
  });
  // Over TLS, whatever the pages ask of decisiond (the page, its script, decisions, explain,
  // tracking calls) goes over HTTPS; only the advertiser's landing origin is plain HTTP.
  const plainRequests = [];
  context.on('request', (r) => {
    if (args.tls && !r.url().startsWith('https://') && !r.url().startsWith(`${landingOrigin}/`)) plainRequests.push(r.url());
  });
  const page = await context.newPage();
  const consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  const impressionCalls = [];
  page.on('request', (r) => {
    if (r.url().startsWith(`${publicBase}/v1/tracking`) && !r.isNavigationRequest()) impressionCalls.push({ at: Date.now(), method: r.method() });
  });

  // The page loads (an admin read: open when a token is set) and reads its config.
  const loaded = await page.goto(`${adminOrigin}/ui`);
  assert.equal(loaded.status(), 200);
  if (args.tls) {
    const security = await loaded.securityDetails();
    assert.equal(security?.issuer, CA_NAME, 'the page came over TLS, verified against the test CA');
  }
  assert.match(loaded.headers()['content-security-policy'], /script-src 'self'/);
  await page.waitForSelector('body[data-ready=true]');
  assert.match(await page.textContent('#status'), new RegExp(`decisions go to ${publicBase}`));

  // Two placements, the second 3000 px further down: below the fold, never scrolled to.
  await page.fill('input[name=placement-key]', 'home_top');
  await page.click('#add-placement');
  await page.locator('input[name=placement-key]').nth(1).fill('article_inline');
  await page.fill('input[name=gap]', '3000');
  await page.fill('input[name=user-id]', 'user-7');
  await page.fill('input[name=language]', 'en');
  await page.selectOption('select[name=version]', '2025-11-01');
  await page.fill('input[name=token]', TOKEN);
  await page.click('#decide');
  await page.waitForSelector('body[data-decided]');
  assert.equal(await page.textContent('#status'), 'decided', 'decision and explain both answered');

  // The decision renders: a link to the click tracking URL, the content as text.
  const ads = page.locator('#creatives .decisiond-ad');
  assert.equal(await ads.count(), 2);
  const first = page.locator('.slot[data-ad=ad_1]');
  assert.equal(await first.locator('.decisiond-title').textContent(), 'Fly to Lisbon from €49');
  assert.equal(await first.locator('.decisiond-body b').count(), 0, 'server text is never markup');
  assert.ok((await first.locator('a.decisiond-ad').getAttribute('href')).startsWith(`${publicBase}/v1/tracking?t=`));
  // The explain table lists the candidates, the served one marked.
  assert.ok(await page.locator('#explain table.explain tr.served').count() >= 2);

  // The impression: once, and not before a second of the ad in view.
  await first.scrollIntoViewIfNeeded();
  const renderedAt = Number(await first.getAttribute('data-rendered-at'));
  await waitFor('the impression to be counted',
    async () => (await counter('decisiond_tracking_calls_total', 'kind="impression"')) >= 1);
  // The server may count the beacon before the browser reports its request here (seen
  // once under ASan): wait for the report too.
  await waitFor('the page\'s impression request to be reported', async () => impressionCalls.length >= 1);
  assert.equal(impressionCalls.length, 1, 'one tracking call from the page');
  // Date.now() in the browser and here are one clock, each truncated to the millisecond.
  assert.ok(impressionCalls[0].at - renderedAt >= 1000 - 2,
    `impression ${impressionCalls[0].at - renderedAt} ms after the ad was rendered`);
  assert.equal(impressionCalls[0].method, 'POST', 'sent with navigator.sendBeacon');
  await page.waitForSelector('.slot[data-ad=ad_1] .tracking-state.done');
  // Another two seconds on the page: still one impression (none for the ad below the fold).
  await page.waitForTimeout(2000);
  assert.equal(await counter('decisiond_tracking_calls_total', 'kind="impression"'), 1);
  assert.equal(await counter('decisiond_impressions_counted_total', ''), 1);
  assert.equal(await page.locator('.slot[data-ad=ad_2] [data-impression]').getAttribute('data-impression'), 'waiting');
  assert.equal(impressionCalls.length, 1);
  await screenshot(page, 'preview-native.png');

  // The click: a new tab follows the tracking URL's 302 to the landing page.
  const navigations = [];
  context.on('request', (r) => { if (r.isNavigationRequest()) navigations.push(r); });
  const [tab] = await Promise.all([context.waitForEvent('page'), first.locator('a.decisiond-ad').click()]);
  await tab.waitForLoadState();
  assert.equal(tab.url(), `${landingOrigin}/landing?ad=1`);
  const arrival = navigations.find((r) => r.url() === `${landingOrigin}/landing?ad=1`);
  const via = arrival?.redirectedFrom();
  assert.ok(via && via.url().startsWith(`${publicBase}/v1/tracking?t=`), 'the landing page was reached from the click URL');
  assert.equal((await via.response()).status(), 302);
  assert.equal(via.redirectedFrom(), null, 'one redirect on the way');
  assert.equal(landing.hits.filter((h) => h.startsWith('/landing')).length, 1);
  await waitFor('the click to be counted',
    async () => (await counter('decisiond_tracking_calls_total', 'kind="click"')) === 1);
  await tab.close();

  // A video ad: its VAST document, pretty-printed, and a player of its media file.
  await page.locator('#placements .remove').nth(1).click();
  await page.fill('input[name=placement-key]', 'video_preroll');
  await page.fill('input[name=gap]', '0');
  const before = await page.getAttribute('body', 'data-decided');
  await page.click('#decide');
  await page.waitForFunction((b) => document.body.dataset.decided !== b, before);
  const vast = await page.textContent('pre.vast');
  assert.match(vast, /^<\?xml/);
  assert.match(vast, /\n {2}<Ad id="ad_3"/);
  assert.match(vast, /<MediaFile [^>]*>.*lounge\.mp4/);
  assert.equal(await page.getAttribute('.slot[data-ad=ad_3] video', 'src'), `${landingOrigin}/media/lounge.mp4`);
  await screenshot(page, 'preview-video.png');

  assert.deepEqual(consoleErrors.filter((e) => !/lounge\.mp4|Failed to load resource/.test(e)), []);
  assert.deepEqual(plainRequests, [], 'nothing but the landing origin over plain HTTP');
  console.log(`${testName}: passed`);
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await browser?.close();
  server.child.kill('SIGTERM');
  landing.server.close();
  await new Promise((r) => (server.child.exitCode !== null ? r() : server.child.once('exit', r)));
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
