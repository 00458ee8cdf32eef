// The API's inline pages (the join page and the member page, docs/architecture.md#join-page) write
// three design-system components as HTML strings (apps/api/src/app/platform/web/inline-page.view.ts).
// This test renders the real components of libs/web/ui with react-dom/server and fails when the
// strings differ (node --test; docs/decisions/inline-pages-checked-against-web-ui.md).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';

const require = createRequire(import.meta.url);
require('./register-ts.cjs');
// The components import their stylesheets; here only their markup matters.
require.extensions['.css'] = (module) => {
  module.exports = {};
};

const root = path.resolve(import.meta.dirname, '../..');
const { createElement } = require('react');
const { renderToStaticMarkup } = require('react-dom/server');
const { Logo } = require(path.join(root, 'libs/web/ui/src/lib/Logo.tsx'));
const { Alert } = require(path.join(root, 'libs/web/ui/src/lib/Alert.tsx'));
const { TextField } = require(path.join(root, 'libs/web/ui/src/lib/TextField.tsx'));
const { designSystemStyles } = require(path.join(root, 'libs/web/ui/styles.cjs'));
const view = require(path.join(root, 'apps/api/src/app/platform/web/inline-page.view.ts'));

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (text) =>
  text.replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, (whole, name) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
    return String.fromCodePoint(
      name[1] === 'x' ? parseInt(name.slice(2), 16) : Number(name.slice(1)),
    );
  });

/**
 * HTML as a list of tokens, normalised only where two spellings mean the same to a browser:
 * attribute order and name case, `<x/>` vs `<x>` for void and SVG elements, how a character is
 * escaped.
 */
function normalise(html) {
  const tokens = [];
  for (const [, tag, text] of html.matchAll(/(<[^>]+>)|([^<]+)/g)) {
    if (text !== undefined) {
      tokens.push(JSON.stringify(decode(text)));
      continue;
    }
    const match = /^<(\/?)([\w-]+)([\s\S]*?)\/?>$/.exec(tag);
    assert.ok(match, `not a tag: ${tag}`);
    const [, closing, name, rest] = match;
    const attributes = [...rest.matchAll(/([\w:-]+)(?:="([^"]*)")?/g)]
      .map(([, key, value = '']) => `${key.toLowerCase()}=${JSON.stringify(decode(value))}`)
      .sort();
    tokens.push(`<${closing}${name.toLowerCase()} ${attributes.join(' ')}>`);
  }
  // A self-closed SVG child (`<circle/>`) and an explicit end tag mean the same.
  return tokens.filter((token) => !/^<\/(circle|rect|input)\b/.test(token));
}

const render = (element) => renderToStaticMarkup(element);
const TRICKY = 'Tom & Jerry\'s "<b>bold</b>" offer';

test('the logo is the Logo component', () => {
  assert.deepEqual(normalise(view.LOGO), normalise(render(createElement(Logo))));
});

test('an alert is the Alert component, in every tone, with its text escaped', () => {
  for (const tone of ['error', 'success', 'info']) {
    assert.deepEqual(
      normalise(view.alertHtml(tone, TRICKY)),
      normalise(render(createElement(Alert, { tone }, TRICKY))),
      tone,
    );
  }
});

test('a field is the TextField component, with and without its error', () => {
  const options = {
    label: 'Email address',
    name: 'email',
    type: 'email',
    autocomplete: 'email',
    value: TRICKY,
  };
  for (const error of [undefined, 'Enter a valid email address.']) {
    const component = createElement(TextField, {
      id: 'join-email',
      label: options.label,
      name: options.name,
      type: options.type,
      autoComplete: options.autocomplete,
      defaultValue: options.value,
      error,
    });
    assert.deepEqual(
      normalise(view.fieldHtml('join-email', options, error)),
      normalise(render(component)),
      error ?? 'no error',
    );
  }
});

test('the normalisation still tells different markup apart', () => {
  assert.notDeepEqual(
    normalise('<div class="g-alert g-alert--info" role="status">x</div>'),
    normalise('<div class="g-alert g-alert--info" role="alert">x</div>'),
  );
  assert.notDeepEqual(normalise('<span>a</span>'), normalise('<span>b</span>'));
});

test("the inline pages' stylesheet list is the design system's, in its cascade order", () => {
  const index = fs.readFileSync(path.join(root, 'libs/web/ui/src/index.ts'), 'utf8');
  const lib = path.join(root, 'libs/web/ui/src/lib');
  const order = [];
  for (const [, spec] of index.matchAll(
    /^(?:import|export \* from) '\.\/lib\/([\w-]+(?:\.css)?)';$/gm,
  )) {
    if (!spec.endsWith('.css') && !fs.existsSync(path.join(lib, `${spec}.tsx`))) continue;
    const sources = spec.endsWith('.css')
      ? [spec]
      : [
          ...fs
            .readFileSync(path.join(lib, `${spec}.tsx`), 'utf8')
            .matchAll(/^import '\.\/([\w-]+\.css)';$/gm),
        ].map((m) => m[1]);
    for (const css of sources) if (!order.includes(css)) order.push(css);
  }
  assert.deepEqual(
    designSystemStyles.map((file) => path.basename(file)),
    order,
  );
  const onDisk = fs.readdirSync(lib).filter((file) => file.endsWith('.css'));
  assert.deepEqual([...order].sort(), onDisk.sort());
});
