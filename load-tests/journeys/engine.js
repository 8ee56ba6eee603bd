// How a journey step becomes a request and how its answer is judged: shared by the k6 script and the Node
// runner, so both send the same requests and apply the same checks. Pure functions, no I/O, no imports
// (k6 loads this file as is). Each runner only does the sending (k6's http module, Node's fetch).

/** Reads a dotted path ('order.id', 'files.0') out of a parsed JSON body; undefined when absent. */
export function lookup(value, path) {
  let current = value;
  for (const part of path.split('.')) {
    if (current === null || current === undefined || typeof current !== 'object') return undefined;
    current = current[part];
  }
  return current;
}

/** Fills {{variable}} in strings, recursively; a string that is exactly '{{v}}' becomes the value itself. */
export function fill(template, vars) {
  if (typeof template === 'string') {
    const whole = /^\{\{(\w+)\}\}$/.exec(template);
    if (whole) {
      if (!(whole[1] in vars))
        throw new Error(`journey variable "${whole[1]}" is not set (an earlier step did not save it)`);
      return vars[whole[1]];
    }
    return template.replace(/\{\{(\w+)\}\}/g, (_, name) => {
      if (!(name in vars)) throw new Error(`journey variable "${name}" is not set (an earlier step did not save it)`);
      return String(vars[name]);
    });
  }
  if (Array.isArray(template)) return template.map((item) => fill(item, vars));
  if (template && typeof template === 'object') {
    const out = {};
    for (const key of Object.keys(template)) out[key] = fill(template[key], vars);
    return out;
  }
  return template;
}

/** The metric name of a step: "<journey>/<step>" (k6's tag `name`, the Node runner's row). */
export function stepName(journey, step) {
  return `${journey.name}/${step.name}`;
}

/**
 * The request of a step with the variables filled in: { method, url, headers, json?, multipart? }.
 * Every request carries Origin = the shop's own origin, as the browser's pages send it (the gateway
 * refuses admin calls from elsewhere).
 */
export function prepare(step, vars) {
  const headers = { accept: 'application/json, text/html', origin: vars.baseUrl };
  const extra = fill(step.headers || {}, vars);
  for (const key of Object.keys(extra)) headers[key] = extra[key];
  const request = { method: step.method, url: vars.baseUrl + fill(step.path, vars), headers };
  if (step.json !== undefined) {
    request.json = fill(step.json, vars);
    headers['content-type'] = 'application/json';
  }
  if (step.multipart !== undefined) request.multipart = fill(step.multipart, vars);
  return request;
}

/**
 * Judges an answer { status, body (text) } against the step's expectations. Returns the failed checks
 * (empty when the step passed) and the variables it saved.
 */
export function judge(step, answer) {
  const failures = [];
  const saved = {};
  const expect = step.expect || {};
  const statuses = expect.status || [200];
  if (statuses.indexOf(answer.status) === -1) {
    failures.push(
      `status ${answer.status}, expected ${statuses.join(' or ')}: ${String(answer.body || '').slice(0, 200)}`,
    );
    return { failures, saved };
  }
  if (expect.bodyIncludes && String(answer.body || '').indexOf(expect.bodyIncludes) === -1) {
    failures.push(`the body does not contain ${JSON.stringify(expect.bodyIncludes)}`);
  }
  const needsJson = (expect.json && expect.json.length) || step.save;
  if (needsJson) {
    let parsed;
    try {
      parsed = JSON.parse(answer.body);
    } catch (_error) {
      failures.push(`the body is not JSON: ${String(answer.body || '').slice(0, 200)}`);
      return { failures, saved };
    }
    for (const path of expect.json || []) {
      if (lookup(parsed, path) === undefined) failures.push(`the answer has no ${path}`);
    }
    for (const name of Object.keys(step.save || {})) {
      const value = lookup(parsed, step.save[name]);
      if (value === undefined) failures.push(`the answer has no ${step.save[name]} to save as ${name}`);
      else saved[name] = value;
    }
  }
  return { failures, saved };
}

/** A value unique to one journey run, usable in emails and idempotency keys (k6 has no randomUUID). */
export function uniqueId(runner, iteration) {
  return `${runner}-${iteration}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
