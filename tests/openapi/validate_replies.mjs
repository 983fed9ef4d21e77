#!/usr/bin/env node
// Validates every reply the integration tests read (tests/integration/reply_log.h) against
// docs/openapi.yaml (public listener) and docs/openapi-admin.yaml (admin plane): status
// documented for the operation, content type, body schema (ajv, JSON Schema 2020-12 as
// OpenAPI 3.1 uses), documented headers present and well-formed. Then reports how many
// replies each operation and status got, and fails when a documented operation or status
// got none (unless ALLOWED_UNCOVERED says why no test can produce it) in a whole run.
//
//   node validate_replies.mjs --dir DIR --public openapi.yaml --admin openapi-admin.yaml
//                             [--tests GTEST_BINARY...]
//
// --tests: the executables whose tests log replies; each is asked --gtest_list_tests, and
// coverage is enforced only when every one of their tests ran (a `ctest -R` run checks
// the replies it made, and reports coverage without judging it).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import YAML from "yaml";

// Statuses documented for an operation that no integration test can make, and why.
// Keys: "<listener> <METHOD> <path> <status>".
const ALLOWED_UNCOVERED = {
  "public POST /v1/decision 500": "10099 needs the crypto library to fail sealing a token; no test can make it fail",
  "public GET /v1/vast 500": "10099 needs the crypto library to fail sealing a token; no test can make it fail",
  "public POST /v1/tracking 302": "the beacon route runs the GET handler, whose 302 is covered; integration.CrossOrigin.ABeaconPostIsATrackingCall covers its 204 only",
  "public POST /v1/tracking 400": "the beacon route runs the GET handler, whose 400s are covered",
  "public POST /v1/tracking 410": "the beacon route runs the GET handler, whose 410s are covered",
  "admin POST /admin/catalog 415": "not made by any integration test yet (the handler shares the decision's media-type check, whose 415 is covered)",
  "admin POST /admin/explain 410": "a sunset version needs a --versions file; the explain reads the version with the decision's resolver, whose 410 is covered on /v1/decision",
  "admin POST /admin/explain 503": "needs more than 8 explains waiting on other cores at once; unit.decision.explain covers the bound",
};
for (const file of ["/ui", "/ui/app.js", "/ui/app.css", "/ui/decisiond.js", "/ui/config.json"]) {
  const why = "the preview page is fetched by browser.preview (tests/browser, headless Chromium), whose replies are not logged";
  ALLOWED_UNCOVERED[`admin GET ${file}`] = why;
  for (const status of ["200", "401"]) ALLOWED_UNCOVERED[`admin GET ${file} ${status}`] = why;
}

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

function parseArgs(argv) {
  const args = { tests: [] };
  for (let i = 2; i < argv.length; ++i) {
    const name = argv[i];
    if (name === "--tests") {
      while (i + 1 < argv.length && !argv[i + 1].startsWith("--")) args.tests.push(argv[++i]);
    } else if (["--dir", "--public", "--admin"].includes(name) && i + 1 < argv.length) {
      args[name.slice(2)] = argv[++i];
    } else {
      throw new Error(`unknown argument ${name}`);
    }
  }
  for (const required of ["dir", "public", "admin"]) {
    if (!args[required]) throw new Error(`--${required} is required`);
  }
  return args;
}

// ---- the documents ----

function loadDocuments(files) {
  const documents = new Map(); // id (file URL) -> parsed document
  for (const file of files) {
    const id = pathToFileURL(path.resolve(file)).href;
    documents.set(id, YAML.parse(fs.readFileSync(file, "utf8")));
  }
  return documents;
}

function pointerGet(object, pointer) {
  if (pointer === "" || pointer === "/") return object;
  let node = object;
  for (const raw of pointer.slice(1).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === undefined || node === null) return undefined;
    node = node[key];
  }
  return node;
}

function escapePointer(key) {
  return String(key).replace(/~/g, "~0").replace(/\//g, "~1");
}

// A location in a document: its id and a JSON pointer.
function resolveRef(documents, baseId, ref) {
  const [file, fragment = ""] = ref.split("#");
  const id = file === "" ? baseId : new URL(file, baseId).href;
  if (!documents.has(id)) throw new Error(`$ref ${ref} from ${baseId}: no such document`);
  return { id, pointer: fragment };
}

// Follows OpenAPI-level $refs (responses, headers) to the object itself.
function deref(documents, location) {
  let { id, pointer } = location;
  for (let hops = 0; hops < 16; ++hops) {
    const node = pointerGet(documents.get(id), pointer);
    if (node === undefined) throw new Error(`${id}#${pointer} does not exist`);
    if (node && typeof node.$ref === "string") {
      ({ id, pointer } = resolveRef(documents, id, node.$ref));
      continue;
    }
    return { id, pointer, node };
  }
  throw new Error(`$ref loop at ${location.id}#${location.pointer}`);
}

// Every component must be referenced from somewhere, extensions included (the linter's
// no-unused-components does not follow x- extensions, redocly.yaml).
function unusedComponents(documents) {
  const referenced = new Set();
  const walk = (id, node) => {
    if (Array.isArray(node)) return node.forEach((item) => walk(id, item));
    if (!node || typeof node !== "object") return;
    if (typeof node.$ref === "string") {
      const target = resolveRef(documents, id, node.$ref);
      referenced.add(`${target.id}#${target.pointer}`);
    }
    for (const value of Object.values(node)) walk(id, value);
  };
  for (const [id, document] of documents) walk(id, document);
  const unused = [];
  for (const [id, document] of documents) {
    for (const [kind, entries] of Object.entries(document.components ?? {})) {
      if (kind === "securitySchemes") continue; // named by security requirements, not $ref
      for (const name of Object.keys(entries)) {
        const pointer = `/components/${kind}/${escapePointer(name)}`;
        if (!referenced.has(`${id}#${pointer}`)) unused.push(`${path.basename(new URL(id).pathname)}#${pointer}`);
      }
    }
  }
  return unused;
}

class Validators {
  constructor(documents) {
    this.documents = documents;
    // strict: false, because the documents around the schemas are not schemas (paths,
    // info, x- extensions), and OpenAPI's own keywords (example) may sit in them.
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    for (const [id, document] of documents) this.ajv.addSchema(document, id);
    this.cache = new Map();
  }

  // The compiled schema at a document location.
  schema(id, pointer) {
    const key = `${id}#${pointer}`;
    let validate = this.cache.get(key);
    if (!validate) {
      const fragment = pointer.split("/").map((part) => encodeURIComponent(part.replace(/~1/g, "/").replace(/~0/g, "~")).replace(/%2F/g, "~1")).join("/");
      validate = this.ajv.compile({ $ref: `${id}#${fragment}` });
      this.cache.set(key, validate);
    }
    return validate;
  }
}

// ---- the operations ----

function operationsOf(documents, listeners) {
  const operations = new Map(); // "<listener> <METHOD> <path>" -> {listener, id, pointer, node}
  for (const [listener, id] of Object.entries(listeners)) {
    const document = documents.get(id);
    for (const [route, item] of Object.entries(document.paths ?? {})) {
      for (const method of HTTP_METHODS) {
        if (!item[method]) continue;
        const pointer = `/paths/${escapePointer(route)}/${method}`;
        operations.set(`${listener} ${method.toUpperCase()} ${route}`, { listener, id, pointer, route, method, node: item[method] });
      }
    }
  }
  return operations;
}

// ---- one reply ----

function headerValues(headers, name) {
  const lower = name.toLowerCase();
  return headers.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
}

function errorCodes(body) {
  return Array.isArray(body?.errors) ? body.errors.map((e) => e?.code) : [];
}

function normaliseMediaType(value) {
  return value.toLowerCase().split(";").map((part) => part.trim()).join("; ");
}

const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-3][0-9] (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-2][0-9]:[0-5][0-9]:[0-6][0-9] GMT$/;

function describeAjvErrors(errors) {
  // The errors of the branches that were closest: ajv lists every failed branch of an
  // anyOf/oneOf; the deepest paths say most.
  const lines = (errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}${e.params && Object.keys(e.params).length ? " " + JSON.stringify(e.params) : ""}`);
  return [...new Set(lines)].slice(0, 8).join("; ");
}

// Checks a reply against one documented response; returns a list of problems.
// routeHeaders: the path's x-decisiond-route-headers, for replies of a routed request.
function checkResponse(validators, location, entry, parsedBody, routeHeaders) {
  const { documents } = validators;
  const response = deref(documents, location);
  const problems = [];
  const head = entry.request.method === "HEAD";
  const contentType = headerValues(entry.headers, "Content-Type")[0];
  const content = response.node.content;
  if (!content) {
    if (contentType !== undefined) problems.push(`Content-Type ${contentType} on a reply documented without content`);
    if (entry.body.length !== 0) problems.push(`a body on a reply documented without content`);
  } else if (contentType === undefined) {
    problems.push(`no Content-Type; documented: ${Object.keys(content).join(", ")}`);
  } else {
    const mediaKey = Object.keys(content).find((key) => normaliseMediaType(key) === normaliseMediaType(contentType));
    if (mediaKey === undefined) {
      problems.push(`Content-Type ${contentType} not documented (${Object.keys(content).join(", ")})`);
    } else if (!head && !entry.body_truncated && content[mediaKey].schema) {
      const json = normaliseMediaType(mediaKey).startsWith("application/json");
      let body = entry.body;
      if (json) {
        if (parsedBody === undefined) problems.push(`body is not JSON: ${entry.body.slice(0, 120)}`);
        body = parsedBody;
      }
      if (!json || parsedBody !== undefined) {
        let schemaPointer = `${response.pointer}/content/${escapePointer(mediaKey)}/schema`;
        let schemaId = response.id;
        // A reply whose shape depends on the version it names.
        const byHeader = response.node["x-decisiond-schema-by-header"];
        if (byHeader) {
          const version = headerValues(entry.headers, byHeader.header)[0];
          // The newest documented version at or below the one named (dates sort as text).
          const at = Object.keys(byHeader.schemas ?? {}).filter((v) => version !== undefined && v <= version).sort().pop();
          const chosen = at === undefined ? undefined : byHeader.schemas[at];
          if (!chosen) {
            problems.push(`${byHeader.header}: ${version ?? "(absent)"} names no documented shape`);
          } else {
            ({ id: schemaId, pointer: schemaPointer } = resolveRef(documents, response.id, chosen.$ref));
          }
        }
        const validate = validators.schema(schemaId, schemaPointer);
        if (!validate(body)) problems.push(`body: ${describeAjvErrors(validate.errors)}`);
      }
    }
  }
  const codes = errorCodes(parsedBody);
  const headers = Object.keys(response.node.headers ?? {}).map((name) =>
    [name, { id: response.id, pointer: `${response.pointer}/headers/${escapePointer(name)}` }]);
  for (const name of Object.keys(routeHeaders?.node ?? {})) {
    headers.push([name, { id: routeHeaders.id, pointer: `${routeHeaders.pointer}/${escapePointer(name)}` }]);
  }
  for (const [name, location] of headers) {
    const header = deref(documents, location);
    const values = headerValues(entry.headers, name);
    const unless = header.node["x-decisiond-required-unless-codes"];
    const required = header.node.required === true ||
      (Array.isArray(unless) && !codes.some((code) => unless.includes(code)));
    if (values.length === 0) {
      if (required) problems.push(`header ${name} missing`);
      continue;
    }
    if (values.length > 1) problems.push(`header ${name} given ${values.length} times`);
    if (header.node.schema) {
      const validate = validators.schema(header.id, `${header.pointer}/schema`);
      if (!validate(values[0])) problems.push(`header ${name}: ${JSON.stringify(values[0])} ${describeAjvErrors(validate.errors)}`);
    }
  }
  return problems;
}

// Problems every reply is checked for, whatever it answers.
function checkProtocol(entry) {
  const problems = [];
  const dates = headerValues(entry.headers, "Date");
  if (dates.length !== 1 || !IMF_FIXDATE.test(dates[0])) problems.push(`Date ${JSON.stringify(dates)} is not one IMF-fixdate`);
  const lengths = headerValues(entry.headers, "Content-Length");
  if (entry.status === 204 ? lengths.length !== 0 : lengths.length !== 1) problems.push(`Content-Length ${JSON.stringify(lengths)} on a ${entry.status}`);
  return problems;
}

// ---- the run ----

function listTests(binaries) {
  const names = new Set();
  for (const binary of binaries) {
    const text = execFileSync(binary, ["--gtest_list_tests"], { encoding: "utf8", maxBuffer: 64 << 20 });
    let suite = "";
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      if (!line.startsWith(" ")) {
        suite = line.split("#")[0].trim();
      } else {
        names.add(suite + line.split("#")[0].trim());
      }
    }
  }
  return names;
}

function readLog(dir) {
  const entries = [];
  const started = new Set();
  const notLogged = new Map(); // kind -> replies past the harness's per-test cap
  if (!fs.existsSync(dir)) return { entries, started, notLogged };
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith(".jsonl")).sort()) {
    const text = fs.readFileSync(path.join(dir, file), "utf8");
    for (const line of text.split("\n")) {
      if (line === "") continue;
      let entry;
      try {
        entry = JSON.parse(line);
      } catch {
        continue; // a line cut by a test process killed mid-write
      }
      if (entry.started) started.add(entry.started);
      else if (entry.not_logged) notLogged.set(entry.kind, (notLogged.get(entry.kind) ?? 0) + entry.not_logged);
      else entries.push(entry);
    }
  }
  return { entries, started, notLogged };
}

function main() {
  const args = parseArgs(process.argv);
  const documents = loadDocuments([args.public, args.admin]);
  const [publicId, adminId] = [...documents.keys()];
  const listeners = { public: publicId, admin: adminId };
  const validators = new Validators(documents);
  const operations = operationsOf(documents, listeners);
  const problems = [];
  for (const unused of unusedComponents(documents)) problems.push({ key: "document", message: `component never referenced: ${unused}`, tests: new Set() });

  const { entries, started, notLogged } = readLog(args.dir);
  const counts = new Map(); // key -> replies
  const failures = new Map(); // key + message -> {key, message, count, tests}
  let interim = 0;
  const fail = (key, message, test) => {
    const id = `${key}\n${message}`;
    let failure = failures.get(id);
    if (!failure) failures.set(id, (failure = { key, message, count: 0, tests: new Set() }));
    ++failure.count;
    if (test) failure.tests.add(test);
  };

  for (const entry of entries) {
    if (entry.status < 200) {
      ++interim; // 100 Continue: the final reply to the same request is checked
      continue;
    }
    const request = entry.request ?? {};
    let listener = entry.listener;
    const rawTarget = request.target ?? "";
    const target = rawTarget.replace(/^[a-z]+:\/\/[^/]*/i, "");
    const route = target.split("?")[0];
    if (listener !== "public" && listener !== "admin") {
      problems.push({ key: "log", message: `a reply from an unknown listener (port ${entry.port})`, tests: new Set([entry.test]) });
      continue;
    }
    const documentId = listeners[listener];
    const unrouted = documents.get(documentId)["x-decisiond-unrouted"] ?? {};
    const unroutedPointer = "/x-decisiond-unrouted";
    const method = request.method === "HEAD" ? "GET" : request.method;
    const operation = request.parsed ? operations.get(`${listener} ${method} ${route}`) : undefined;
    const candidates = [];
    let key;
    // The headers every reply of a routed request on this path carries.
    const pathPointer = `/paths/${escapePointer(route)}/x-decisiond-route-headers`;
    const routeNode = request.parsed ? pointerGet(documents.get(documentId), pathPointer) : undefined;
    const routeHeaders = routeNode ? { id: documentId, pointer: pathPointer, node: routeNode } : undefined;
    if (operation) {
      key = `${listener} ${method} ${route}`;
      if (operation.node.responses?.[String(entry.status)]) {
        candidates.push({ id: operation.id, pointer: `${operation.pointer}/responses/${entry.status}`, routeHeaders });
      }
    } else {
      const pathKnown = request.parsed && [...operations.values()].some((op) => op.listener === listener && op.route === route);
      const group = !request.parsed ? "anyRequest" : pathKnown ? "unknownMethod" : "unknownPath";
      key = `${listener} (${group === "anyRequest" ? "unreadable request" : group === "unknownMethod" ? `${request.method} ${route}` : "unknown path"})`;
      if (unrouted[group]?.[String(entry.status)]) {
        candidates.push({ id: documentId, pointer: `${unroutedPointer}/${group}/${entry.status}`,
                          routeHeaders: group === "unknownMethod" ? routeHeaders : undefined });
      }
    }
    if (unrouted.anyRequest?.[String(entry.status)]) {
      candidates.push({ id: documentId, pointer: `${unroutedPointer}/anyRequest/${entry.status}` });
    }
    const countKey = `${key} ${entry.status}`;
    counts.set(countKey, (counts.get(countKey) ?? 0) + 1);

    let parsedBody;
    try {
      parsedBody = entry.body === "" ? undefined : JSON.parse(entry.body);
    } catch {
      parsedBody = undefined;
    }
    const protocol = checkProtocol(entry);
    for (const message of protocol) fail(countKey, message, entry.test);
    if (candidates.length === 0) {
      fail(countKey, `status ${entry.status} is not documented here`, entry.test);
      continue;
    }
    let firstProblems;
    let passed = false;
    for (const candidate of candidates) {
      const found = checkResponse(validators, candidate, entry, parsedBody, candidate.routeHeaders);
      if (found.length === 0) {
        passed = true;
        break;
      }
      firstProblems ??= found;
    }
    if (!passed) for (const message of firstProblems) fail(countKey, message, entry.test);
  }

  // ---- report ----
  const lines = [];
  lines.push(`openapi.replies: ${entries.length} replies logged by ${started.size} tests` + (interim ? ` (${interim} interim 1xx not checked)` : ""));
  lines.push("replies validated per operation and status:");
  for (const [key, count] of [...counts].sort(([a], [b]) => a.localeCompare(b))) lines.push(`  ${String(count).padStart(6)}  ${key}`);
  if (notLogged.size > 0) {
    const total = [...notLogged.values()].reduce((a, b) => a + b, 0);
    lines.push(`${total} more replies alike were read and not logged (past 300 per test, listener, method, path and status):`);
    for (const [kind, count] of [...notLogged].sort(([a], [b]) => a.localeCompare(b))) lines.push(`  ${String(count).padStart(6)}  ${kind}`);
  }

  // Coverage: every documented operation, and each of its statuses. A status documented
  // by a shared response (the HTTP layer's 400 10007, 408, 413, 431, the 503) is covered
  // when that response answered any request: one code path makes it for every route.
  const coveredTargets = new Set();
  for (const [key, count] of counts) {
    if (count === 0) continue;
    const match = /^(\S+) (\S+) (\S+) (\d+)$/.exec(key);
    const operation = match && operations.get(`${match[1]} ${match[2]} ${match[3]}`);
    const raw = operation?.node.responses?.[match[4]];
    if (raw?.$ref) coveredTargets.add(JSON.stringify(resolveRef(documents, operation.id, raw.$ref)));
    const unroutedHere = documents.get(listeners[key.split(" ")[0]])["x-decisiond-unrouted"]?.anyRequest?.[key.split(" ").pop()];
    if (unroutedHere?.$ref && !operation) coveredTargets.add(JSON.stringify(resolveRef(documents, listeners[key.split(" ")[0]], unroutedHere.$ref)));
  }
  const sharedCovered = (operation, status) => {
    const raw = operation.node.responses?.[status];
    return raw?.$ref !== undefined && coveredTargets.has(JSON.stringify(resolveRef(documents, operation.id, raw.$ref)));
  };
  const uncovered = [];
  for (const [key, operation] of operations) {
    const statuses = Object.keys(operation.node.responses ?? {});
    const any = [...counts.keys()].some((k) => k.startsWith(`${key} `));
    if (!any && !ALLOWED_UNCOVERED[key]) uncovered.push(`${key}: no reply at all`);
    for (const status of statuses) {
      const statusKey = `${key} ${status}`;
      if (!counts.has(statusKey) && !ALLOWED_UNCOVERED[statusKey] && !sharedCovered(operation, status)) {
        uncovered.push(`${statusKey}: no reply`);
      }
    }
  }
  for (const key of Object.keys(ALLOWED_UNCOVERED)) {
    if (counts.has(key) || (!/ \d+$/.test(key) && [...counts.keys()].some((k) => k.startsWith(`${key} `)))) uncovered.push(`${key}: allowed to be uncovered, yet tests produced it; remove it from ALLOWED_UNCOVERED`);
  }
  let whole = false;
  if (args.tests.length > 0) {
    const all = listTests(args.tests);
    const missing = [...all].filter((name) => !started.has(name));
    whole = missing.length === 0;
    lines.push(whole ? `whole run: all ${all.size} tests of the logged executables ran`
                     : `partial run: ${all.size - missing.length} of ${all.size} tests ran; coverage reported, not enforced`);
  }
  if (uncovered.length > 0) {
    lines.push(whole ? "not covered by any test (fails a whole run):" : "not covered in this run:");
    for (const item of uncovered) lines.push(`  ${item}`);
  }

  for (const problem of problems) fail(problem.key, problem.message, [...problem.tests][0]);
  const failed = [...failures.values()];
  if (failed.length > 0) {
    lines.push(`${failed.reduce((n, f) => n + f.count, 0)} mismatches with the documents:`);
    for (const f of failed) {
      const tests = [...f.tests];
      lines.push(`  [${f.key}] ${f.message}`);
      lines.push(`      ${f.count} repl${f.count === 1 ? "y" : "ies"}; tests: ${tests.slice(0, 5).join(", ")}${tests.length > 5 ? `, and ${tests.length - 5} more` : ""}`);
    }
  }
  console.log(lines.join("\n"));
  const coverageFails = whole && uncovered.length > 0;
  if (failed.length > 0 || coverageFails) process.exit(1);
}

main();
