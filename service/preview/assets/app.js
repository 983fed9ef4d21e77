// The preview page (docs/preview.md): the form becomes a decision request, sent twice:
// to the public listener's POST /v1/decision through the browser client (real creatives,
// real tracking URLs) and to this listener's POST /admin/explain (why each candidate was
// or was not served). Everything the server sends reaches the page through textContent or
// URL-checked attributes, never as markup.
import { decide, DecisionError, isVideo, render, safeUrl } from '/ui/decisiond.js';

const $ = (selector, root = document) => root.querySelector(selector);
let config = { publicBaseUrl: '' };
let handles = [];

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

function setStatus(text, isError = false) {
  const status = $('#status');
  status.textContent = text;
  status.className = isError ? 'error' : '';
}

function addPlacementRow(key = 'home_top') {
  const row = $('#placement-row').content.firstElementChild.cloneNode(true);
  $('input[name=placement-key]', row).value = key;
  $('.remove', row).addEventListener('click', () => {
    if ($('#placements tbody').rows.length > 1) row.remove();
  });
  $('#placements tbody').append(row);
}

// "tier=gold\nage=42\nvip=true" -> {tier: "gold", age: 42, vip: true}
function parseCustom(text) {
  const custom = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at <= 0) continue;
    const key = line.slice(0, at).trim();
    const raw = line.slice(at + 1).trim();
    if (raw === 'true' || raw === 'false') custom[key] = raw === 'true';
    else if (raw !== '' && Number.isFinite(Number(raw))) custom[key] = Number(raw);
    else custom[key] = raw;
  }
  return custom;
}

// The form as { placements, user, headers }; only what was filled in is sent.
function readForm() {
  const form = $('#request');
  const value = (name) => form.elements[name].value.trim();
  const targeting = {};
  const geo = value('geo').split(/[\s,]+/).filter(Boolean).map(Number);
  if (geo.length) targeting.geo = geo;
  if (value('lat') !== '' && value('lon') !== '') {
    targeting.location = [{ lat: Number(value('lat')), lon: Number(value('lon')), radius: Number(value('radius') || 0) }];
  }
  const custom = parseCustom(form.elements.custom.value);
  if (Object.keys(custom).length) targeting.custom = custom;

  const placements = [];
  for (const row of $('#placements tbody').rows) {
    const item = { key: $('input[name=placement-key]', row).value.trim() };
    const count = Number($('input[name=placement-count]', row).value);
    if (Number.isInteger(count) && count !== 1) item.count = count;
    const format = $('select[name=placement-format]', row).value;
    if (format) item.format = format;
    if (Object.keys(targeting).length) item.targeting = targeting;
    placements.push(item);
  }

  const user = {};
  if (value('user-id')) user.id = value('user-id');
  if (value('user-ip')) user.ip = value('user-ip');
  if (value('user-timezone')) user.timezone = value('user-timezone');
  const consent = value('user-consent');
  if (consent === 'true' || consent === 'false') user.consent = { gdpr: consent === 'true' };
  if (consent === 'tcf') user.consent = { gdpr: value('user-consent-string') };
  return {
    placements,
    user: Object.keys(user).length ? user : undefined,
    language: value('language'),
    version: value('version'),
    token: form.elements.token.value,
    gapPx: Number(value('gap') || 0),
  };
}

async function explain(request) {
  const headers = { 'Content-Type': 'application/json', 'X-Decision-Version': request.version };
  if (request.language) headers['Accept-Language'] = request.language;
  if (request.token) headers.Authorization = `Bearer ${request.token}`;
  const body = { placements: request.placements };
  if (request.user) body.user = request.user;
  const reply = await fetch('/admin/explain', { method: 'POST', headers, body: JSON.stringify(body) });
  const json = await reply.json().catch(() => null);
  if (!reply.ok || !json || json.success !== true) {
    const error = json && Array.isArray(json.errors) && json.errors[0];
    throw new Error(error ? `${reply.status}: ${error.code} ${error.message}` : `${reply.status}`);
  }
  return json.data;
}

// ---- Creatives ----

function renderNative(creative, slot) {
  const holder = el('div');
  slot.append(holder);
  // When the ad reached the page: its viewability clock cannot have started earlier.
  slot.dataset.renderedAt = String(Date.now());
  const state = el('div', 'impression: waiting for half of the ad in view for 1 s', 'tracking-state');
  state.dataset.impression = 'waiting';
  slot.append(state);
  const handle = render(creative, holder, {
    target: '_blank',
    onImpression() {
      state.textContent = 'impression: sent';
      state.dataset.impression = 'sent';
      state.classList.add('done');
    },
  });
  for (const name of handle.customEvents) {
    const button = el('button', `send custom event “${name}”`);
    button.type = 'button';
    button.addEventListener('click', () => {
      handle.track(name);
      button.textContent = `custom event “${name}” sent`;
    });
    slot.append(button);
  }
  handles.push(handle);
}

// The VAST document of a video creative: inline (vast_xml) or fetched from its tag (a
// fetch seals tracking URLs but counts nothing until a player calls them).
async function vastText(creative) {
  const vast = creative.vast ?? {};
  if (creative.delivery === 'vast_xml' && typeof vast.xmlBase64 === 'string') {
    const bytes = Uint8Array.from(atob(vast.xmlBase64), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  }
  if (creative.delivery === 'vast_tag' && safeUrl(vast.tagUrl)) {
    const reply = await fetch(vast.tagUrl, { credentials: 'omit' });
    return reply.text();
  }
  return null;
}

// XML re-indented for reading: elements one a line, text and CDATA kept as they are.
export function prettyXml(text) {
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length) return text;
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const attrs = (node) => Array.from(node.attributes, (a) => ` ${a.name}="${a.value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`).join('');
  const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const walk = (node, depth) => {
    const pad = '  '.repeat(depth);
    const children = Array.from(node.childNodes).filter((c) => c.nodeType !== Node.TEXT_NODE || c.nodeValue.trim() !== '');
    if (children.length === 0) {
      lines.push(`${pad}<${node.nodeName}${attrs(node)}/>`);
    } else if (children.every((c) => c.nodeType === Node.TEXT_NODE || c.nodeType === Node.CDATA_SECTION_NODE)) {
      const inner = children.map((c) => (c.nodeType === Node.CDATA_SECTION_NODE ? `<![CDATA[${c.nodeValue}]]>` : escape(c.nodeValue.trim()))).join('');
      lines.push(`${pad}<${node.nodeName}${attrs(node)}>${inner}</${node.nodeName}>`);
    } else {
      lines.push(`${pad}<${node.nodeName}${attrs(node)}>`);
      for (const child of children) {
        if (child.nodeType === Node.ELEMENT_NODE) walk(child, depth + 1);
        else if (child.nodeType === Node.CDATA_SECTION_NODE) lines.push(`${pad}  <![CDATA[${child.nodeValue}]]>`);
        else if (child.nodeType === Node.TEXT_NODE) lines.push(`${pad}  ${escape(child.nodeValue.trim())}`);
      }
      lines.push(`${pad}</${node.nodeName}>`);
    }
  };
  walk(doc.documentElement, 0);
  return lines.join('\n');
}

// The media file a player would pick first: the first the browser says it can play.
function pickMedia(urlsWithTypes) {
  const probe = document.createElement('video');
  return urlsWithTypes.find((m) => m.url && probe.canPlayType(m.type || '') !== '') ?? urlsWithTypes.find((m) => m.url);
}

async function renderVideo(creative, slot) {
  const metadata = creative.metadata ?? {};
  slot.append(el('div', `video ad ${metadata.adId ?? ''}: delivery ${creative.delivery}, ${metadata.duration ?? '?'} s` +
    (metadata.is_skippable ? `, skippable after ${metadata.skip_offset_seconds} s` : ''), 'tracking-state'));
  slot.append(el('div', 'The player preview plays the media file only: no VAST tracking is called.', 'tracking-state'));
  const media = [];
  const pre = el('pre');
  pre.className = 'vast';
  try {
    const xml = await vastText(creative);
    if (xml !== null) {
      pre.textContent = prettyXml(xml);
      const doc = new DOMParser().parseFromString(xml, 'application/xml');
      for (const file of doc.getElementsByTagName('MediaFile')) {
        media.push({ url: safeUrl(file.textContent.trim()), type: file.getAttribute('type') });
      }
    } else {
      pre.textContent = '(json delivery: no VAST document; the media files are in the creative’s contents)';
      for (const item of creative.contents ?? []) {
        if (/^media_file_\d+$/.test(item.key)) media.push({ url: safeUrl(item.value), type: item.type });
      }
    }
  } catch (error) {
    pre.textContent = `could not read the VAST document: ${error.message}`;
  }
  const chosen = pickMedia(media);
  if (chosen) {
    const video = document.createElement('video');
    video.controls = true;
    video.muted = true;
    video.preload = 'metadata';
    video.src = chosen.url;
    slot.append(video);
  }
  slot.append(pre);
}

async function showCreatives(decision, gapPx) {
  const root = $('#creatives');
  root.replaceChildren();
  for (const warning of decision.warnings) {
    root.append(el('div', `warning ${warning.code}${warning.known ? '' : ' (unknown to this page)'}: ${warning.message}`, 'tracking-state'));
  }
  let first = true;
  for (const placement of decision.placements) {
    if (!first && gapPx > 0) {
      const spacer = el('div', `${gapPx} px of page: what follows is below the fold until scrolled to`, 'spacer');
      spacer.style.height = `${gapPx}px`;
      root.append(spacer);
    }
    first = false;
    const section = el('div', null, 'placement');
    section.dataset.placement = placement.placement;
    section.append(el('h3', `${placement.placement}: ${placement.creatives.length} creative(s)`));
    root.append(section);
    for (const creative of placement.creatives) {
      const slot = el('div', null, 'slot');
      slot.dataset.ad = creative?.metadata?.adId ?? '';
      section.append(slot);
      if (isVideo(creative)) await renderVideo(creative, slot);
      else renderNative(creative, slot);
    }
  }
}

// ---- The explain ----

function ruleText(rule) {
  if (!rule) return '';
  const { name, ...details } = rule;
  return Object.keys(details).length ? `${name} ${JSON.stringify(details)}` : name;
}

function showExplain(data) {
  const root = $('#explain');
  root.replaceChildren();
  const request = data.request ?? {};
  if (request.version) {
    root.append(el('div', `version ${request.version.served} (${request.version.phase}), catalog ${request.catalogRevision ?? '?'}, now ${request.now ?? '?'}` +
      (request.frequencyCaps ? `, frequency caps: ${request.frequencyCaps.applied ? 'applied' : 'not applied'} (${request.frequencyCaps.why})` : ''), 'tracking-state'));
  }
  for (const placement of data.placements ?? []) {
    const section = el('div', null, 'placement');
    section.append(el('h3', `${placement.placement}${placement.known === false ? ' (unknown placement)' : ''}: ` +
      `count ${placement.count}, filled by ${placement.filledBy ?? 'nothing'}`));
    const table = el('table', null, 'explain');
    const head = table.createTHead().insertRow();
    for (const title of ['ad', 'format', 'priority', 'weight', 'outcome', 'creative', 'rule that excluded it', 'caps']) {
      head.append(el('th', title));
    }
    const body = table.createTBody();
    for (const c of placement.candidates ?? []) {
      const row = body.insertRow();
      row.className = c.outcome === 'served' ? 'served' : 'excluded';
      const caps = c.frequencyCaps?.caps?.map((cap) => `${cap.counted}/${cap.impressions} per ${cap.windowSeconds} s`).join(', ') ?? '';
      for (const value of [c.ad, c.format, c.priority, c.weight, c.outcome, c.creative ?? '', null, caps]) {
        const cell = row.insertCell();
        if (value === null) cell.append(el('code', ruleText(c.rule)));
        else cell.textContent = String(value);
      }
    }
    section.append(table);
    root.append(section);
  }
}

// ---- The form ----

async function onDecide(event) {
  event.preventDefault();
  for (const handle of handles) handle.destroy();
  handles = [];
  const request = readForm();
  $('#sent').textContent = JSON.stringify({ placements: request.placements, user: request.user }, null, 2);
  $('#results').hidden = false;
  setStatus('deciding…');
  const [decided, explained] = await Promise.allSettled([
    decide(request.placements, {
      baseUrl: config.publicBaseUrl,
      version: request.version,
      language: request.language || undefined,
      user: request.user,
      onWarning: () => {},
    }),
    explain(request),
  ]);
  const problems = [];
  if (decided.status === 'fulfilled') {
    await showCreatives(decided.value, request.gapPx);
  } else {
    $('#creatives').replaceChildren();
    const e = decided.reason;
    problems.push(e instanceof DecisionError
      ? `decision ${e.status}: ${e.errors.map((x) => `${x.code} ${x.message}${x.details.field ? ` (${x.details.field})` : ''}`).join('; ')}`
      : `decision: ${e.message}`);
  }
  if (explained.status === 'fulfilled') {
    showExplain(explained.value);
  } else {
    $('#explain').replaceChildren(el('div', `explain refused: ${explained.reason.message}` +
      (explained.reason.message.startsWith('401') ? ' (type the admin token)' : ''), 'tracking-state'));
    problems.push(`explain: ${explained.reason.message}`);
  }
  document.body.dataset.decided = String(Date.now());
  if (problems.length) setStatus(problems.join('\n'), true);
  else setStatus('decided');
}

async function start() {
  addPlacementRow();
  $('#add-placement').addEventListener('click', () => addPlacementRow(''));
  $('#request').addEventListener('submit', onDecide);
  try {
    config = await (await fetch('/ui/config.json')).json();
    setStatus(`decisions go to ${config.publicBaseUrl}`);
  } catch (error) {
    setStatus(`could not read /ui/config.json: ${error.message}`, true);
  }
  document.body.dataset.ready = 'true';
}

start();
