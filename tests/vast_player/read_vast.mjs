// Reads a VAST document the way a web player does: @dailymotion/vast-client's VASTParser
// over @xmldom/xmldom's DOMParser, and prints what the player saw as one JSON object.
//
//   node read_vast.mjs [--replace-macros] FILE|-
//
// Exit 0: the parser produced a response (VAST-warning and VAST-error events are in the
// output for the caller to check). Exit 2: the XML or the parser failed. Exit 64: bad usage.
import { readFileSync } from 'node:fs';
import { DOMParser } from '@xmldom/xmldom';
import { VASTParser, VASTTracker } from '@dailymotion/vast-client';

const USAGE = 'usage: node read_vast.mjs [--replace-macros] FILE|-';
// The values a player passes when it reports an error or a skipped verification; the
// integration tests look for them in the resolved URLs.
const PLAYER_MACROS = Object.freeze({ ERRORCODE: 405, REASON: 2 });

function fail(message, code) {
  process.stderr.write(`read_vast: ${message}\n`);
  process.exit(code);
}

function parseArgs(argv) {
  const args = { replaceMacros: false, file: null };
  for (const arg of argv) {
    if (arg === '--replace-macros') args.replaceMacros = true;
    else if (arg === '-' || !arg.startsWith('-')) {
      if (args.file !== null) fail(USAGE, 64);
      args.file = arg;
    } else fail(`unknown option ${arg}\n${USAGE}`, 64);
  }
  if (args.file === null) fail(USAGE, 64);
  return args;
}

function readDocument(file) {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (err) {
    return fail(`cannot read ${file}: ${err.message}`, 2);
  }
}

// xmldom 0.9 reports recoverable problems as warnings and keeps going; an `error` means
// the document is not well-formed, which no player would accept either.
function parseXml(text, xmlWarnings) {
  const onError = (level, message) => {
    if (level === 'warning') xmlWarnings.push(String(message).trim());
    else throw new Error(String(message).trim());
  };
  try {
    return new DOMParser({ onError }).parseFromString(text, 'text/xml');
  } catch (err) {
    return fail(`XML is not well-formed: ${err.message}`, 2);
  }
}

// VAST-warning payloads may carry the offending DOM node (`wrongNode`): keep its name only.
function plain(value) {
  return JSON.parse(
    JSON.stringify(value, (key, v) =>
      v && typeof v === 'object' && typeof v.nodeType === 'number' ? `<${v.nodeName}>` : v
    )
  );
}

// vast-client keeps some URL templates as strings and others as {id, url}.
const urlOf = (template) => (template && typeof template === 'object' ? template.url : template);
const urls = (templates) => (templates || []).map(urlOf);
const eventUrls = (events) =>
  Object.fromEntries(Object.entries(events || {}).map(([event, list]) => [event, urls(list)]));

function extension(ext) {
  return {
    name: ext.name,
    type: ext.attributes.type ?? null,
    attributes: ext.attributes,
    value: ext.value,
    children: ext.children.map(extension),
  };
}

function mediaFile(file) {
  const { id, fileURL, deliveryType, mimeType, codec, width, height, bitrate } = file;
  const { minBitrate, maxBitrate, fileSize, apiFramework } = file;
  return { id, fileURL, deliveryType, mimeType, codec, width, height, bitrate, minBitrate, maxBitrate, fileSize, apiFramework };
}

function icon(ic) {
  return {
    program: ic.program,
    width: ic.width,
    height: ic.height,
    staticResource: ic.staticResource,
    iconClickThroughURLTemplate: ic.iconClickThroughURLTemplate,
    iconClickTrackingURLTemplates: urls(ic.iconClickTrackingURLTemplates),
    iconViewTrackingURLTemplate: ic.iconViewTrackingURLTemplate,
    iconClickFallbackImages: ic.iconClickFallbackImages,
  };
}

function companion(variation) {
  return {
    id: variation.id,
    width: variation.width,
    height: variation.height,
    adSlotId: variation.adSlotId,
    staticResources: variation.staticResources,
    htmlResources: variation.htmlResources,
    iframeResources: variation.iframeResources,
    altText: variation.altText,
    companionClickThroughURLTemplate: variation.companionClickThroughURLTemplate,
    companionClickTrackingURLTemplates: urls(variation.companionClickTrackingURLTemplates),
    trackingEvents: eventUrls(variation.trackingEvents),
  };
}

function nonLinear(variation) {
  return {
    id: variation.id,
    width: variation.width,
    height: variation.height,
    staticResource: variation.staticResource,
    htmlResource: variation.htmlResource,
    iframeResource: variation.iframeResource,
    nonlinearClickThroughURLTemplate: variation.nonlinearClickThroughURLTemplate,
    nonlinearClickTrackingURLTemplates: urls(variation.nonlinearClickTrackingURLTemplates),
  };
}

function creative(c) {
  const out = {
    type: c.type,
    id: c.id,
    adId: c.adId,
    sequence: c.sequence,
    apiFramework: c.apiFramework,
    universalAdIds: c.universalAdIds || [],
    creativeExtensions: (c.creativeExtensions || []).map(extension),
    trackingEvents: eventUrls(c.trackingEvents),
  };
  if (c.type === 'linear') {
    Object.assign(out, {
      duration: c.duration,
      skipDelay: c.skipDelay,
      mediaFiles: c.mediaFiles.map(mediaFile),
      closedCaptionFiles: c.closedCaptionFiles,
      videoClickThroughURLTemplate: urlOf(c.videoClickThroughURLTemplate) ?? null,
      videoClickTrackingURLTemplates: urls(c.videoClickTrackingURLTemplates),
      videoCustomClickURLTemplates: urls(c.videoCustomClickURLTemplates),
      adParameters: c.adParameters,
      icons: c.icons.map(icon),
    });
  } else if (c.type === 'companion') {
    Object.assign(out, { required: c.required, companions: c.variations.map(companion) });
  } else if (c.type === 'nonlinear') {
    out.nonLinears = c.variations.map(nonLinear);
  }
  return out;
}

function verification(v) {
  const { vendor, resource, apiFramework, type, browserOptional, parameters } = v;
  return { vendor, resource, apiFramework, type, browserOptional, parameters, trackingEvents: eventUrls(v.trackingEvents) };
}

function ad(a) {
  return {
    id: a.id,
    sequence: a.sequence,
    adType: a.adType,
    kind: a.VASTAdTagURI ? 'wrapper' : 'inline',
    vastAdTagURI: a.VASTAdTagURI ?? null,
    adServingId: a.adServingId,
    title: a.title,
    description: a.description,
    advertiser: a.advertiser?.value ?? null,
    system: a.system?.value ?? null,
    systemVersion: a.system?.version ?? null,
    categories: a.categories,
    pricing: a.pricing,
    expires: a.expires,
    impressionURLTemplates: urls(a.impressionURLTemplates),
    errorURLTemplates: urls(a.errorURLTemplates),
    viewableImpression: a.viewableImpression,
    extensions: a.extensions.map(extension),
    adVerifications: a.adVerifications.map(verification),
    creatives: a.creatives.map(creative),
  };
}

// vast-client does not export util.resolveURLTemplates; a player reaches it through
// VASTTracker.trackURLs -> util.track -> util.resolveURLTemplates, which also adds the
// macros the tracker knows (ASSETURI, UNIVERSALADID, ADSERVINGID, PODSEQUENCE, ...) and
// drops URLs that are not http(s) or protocol-relative. util.track only fires
// `new Image().src = url` when `window` exists: a stub Image records the URL instead.
function resolveUrls(response) {
  const fired = [];
  globalThis.window = globalThis;
  globalThis.Image = class {
    set src(url) {
      fired.push(url);
    }
  };
  const resolved = [];
  const trackerErrors = [];
  const newTracker = (adValue, creativeValue, variation = null) => {
    const tracker = new VASTTracker(null, adValue, creativeValue, variation);
    tracker.on('TRACKER-error', (e) => trackerErrors.push(e.message));
    return tracker;
  };
  // One template at a time, so each resolved URL stays paired with its template.
  const resolveAll = (tracker, where, adIndex, templates) => {
    for (const template of templates || []) {
      fired.length = 0;
      tracker.trackURLs([template], { ...PLAYER_MACROS });
      resolved.push({ where, ad: adIndex, template: urlOf(template), url: fired[0] ?? null });
    }
  };

  resolveAll(newTracker({}, { trackingEvents: {} }), 'error', null, response.errorURLTemplates);
  response.ads.forEach((a, i) => {
    const linear = a.creatives.find((c) => c.type === 'linear');
    const first = a.creatives[0];
    const adTracker = linear
      ? newTracker(a, linear)
      : newTracker(a, first || { trackingEvents: {} }, first?.variations?.[0] ?? null);
    resolveAll(adTracker, 'impression', i, a.impressionURLTemplates);
    resolveAll(adTracker, 'error', i, a.errorURLTemplates);
    for (const viewable of a.viewableImpression) {
      for (const kind of ['viewable', 'notViewable', 'viewUndetermined']) {
        resolveAll(adTracker, `viewable:${kind}`, i, viewable[kind]);
      }
    }
    for (const v of a.adVerifications) {
      for (const [event, list] of Object.entries(v.trackingEvents)) {
        resolveAll(adTracker, `verification:${event}`, i, list);
      }
    }
    for (const c of a.creatives) {
      const tracker = c.type === 'linear' ? newTracker(a, c) : null;
      if (tracker) {
        for (const [event, list] of Object.entries(c.trackingEvents)) {
          resolveAll(tracker, `tracking:${event}`, i, list);
        }
        resolveAll(tracker, 'clickTracking', i, c.videoClickTrackingURLTemplates);
        for (const ic of c.icons) {
          resolveAll(tracker, 'iconClickTracking', i, ic.iconClickTrackingURLTemplates);
          if (ic.iconViewTrackingURLTemplate) {
            resolveAll(tracker, 'iconViewTracking', i, [ic.iconViewTrackingURLTemplate]);
          }
        }
        continue;
      }
      const creativeTracker = newTracker(a, c, c.variations?.[0] ?? null);
      for (const [event, list] of Object.entries(c.trackingEvents || {})) {
        resolveAll(creativeTracker, `tracking:${event}`, i, list);
      }
      for (const variation of c.variations || []) {
        const variationTracker = newTracker(a, c, variation);
        for (const [event, list] of Object.entries(variation.trackingEvents || {})) {
          resolveAll(variationTracker, `tracking:${event}`, i, list);
        }
        resolveAll(variationTracker, 'companionClickTracking', i, variation.companionClickTrackingURLTemplates);
        resolveAll(variationTracker, 'nonLinearClickTracking', i, variation.nonlinearClickTrackingURLTemplates);
      }
    }
  });
  delete globalThis.Image;
  delete globalThis.window;
  return { resolved, trackerErrors };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const xmlWarnings = [];
  const xml = parseXml(readDocument(args.file), xmlWarnings);

  const parser = new VASTParser();
  const warnings = [];
  const vastErrors = [];
  parser.on('VAST-warning', (w) => warnings.push(plain(w)));
  parser.on('VAST-error', (e) => vastErrors.push(plain(e)));

  let response;
  try {
    response = await parser.parseVAST(xml);
  } catch (err) {
    return fail(`vast-client rejected the document: ${err?.message ?? err}`, 2);
  }

  const out = {
    version: response.version,
    ads: response.ads.map(ad),
    errorURLTemplates: urls(response.errorURLTemplates),
    warnings,
    vastErrors,
    xmlWarnings,
  };
  if (args.replaceMacros) {
    const { resolved, trackerErrors } = resolveUrls(response);
    out.resolvedUrls = resolved;
    out.trackerErrors = trackerErrors;
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((err) => fail(`internal error: ${err?.stack ?? err}`, 2));
