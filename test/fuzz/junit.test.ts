/** The JUnit writer both `conform --junit` and `proxy --junit` use: counts from the cases, XML text that parses. */
import { describe, expect, it } from 'vitest';
import { junitXml, xml } from '../../oracle/junit.js';

describe('junitXml', () => {
  const document = junitXml({
    tool: 'proxy',
    name: 'Plant Store <1.0.0> & "friends"',
    durationMs: 1234.5,
    properties: [['exchanges', 3], ['strict', false]],
    cases: [
      { name: 'status-declared', outcome: { kind: 'failure', message: 'status 201 is not declared', type: 'status-declared', text: 'first failure: <b>201</b>' } },
      { name: 'echo', outcome: { kind: 'output', text: 'a warning' } },
      { name: 'requires-auth', outcome: { kind: 'skipped', message: 'no exchange was judged by this check' } },
      { name: 'response-shape', outcome: { kind: 'passed' } },
      { name: 'run completed', outcome: { kind: 'error', message: 'the target stopped answering' } },
    ],
  });

  it('counts each outcome from the cases, on the suites and the suite', () => {
    expect(document).toContain('<testsuites name="plant-store proxy" tests="5" failures="1" errors="1" time="1.234">');
    expect(document).toContain('tests="5" failures="1" errors="1" skipped="1" time="1.234">');
    expect(document.match(/<testcase /g)).toHaveLength(5);
    expect(document).toContain('<testcase classname="plant-store.proxy" name="response-shape" time="0"/>');
    expect(document).toContain('<property name="strict" value="false"/>');
  });

  it('escapes every text it writes', () => {
    expect(document).toContain('name="Plant Store &lt;1.0.0&gt; &amp; &quot;friends&quot;"');
    expect(document).toContain('>first failure: &lt;b&gt;201&lt;/b&gt;</failure>');
    expect(document).not.toMatch(/<b>/);
  });

  it('writes characters XML 1.0 cannot carry as \\u escapes, and keeps surrogate pairs', () => {
    expect(xml('a\u0000b\u001fc\ud800d')).toBe('a\\u0000b\\u001fc\\ud800d');
    expect(xml('🌱\t\n')).toBe('🌱\t\n');
  });

  it('writes each further group as a suite of its own, counted on <testsuites> with the first', () => {
    const grouped = junitXml({
      tool: 'conform',
      name: 'run',
      durationMs: 10,
      properties: [],
      cases: [{ name: 'echo', outcome: { kind: 'passed' } }],
      groups: [{ name: 'operations', word: 'operation', cases: [{ name: 'getA (GET /a)', outcome: { kind: 'output', text: '3 requests sent' } }, { name: 'delA (DELETE /a)', outcome: { kind: 'skipped', message: 'not tested: no credentials' } }] }],
    });
    expect(grouped).toContain('<testsuites name="plant-store conform" tests="3" failures="0" errors="0"');
    expect(grouped).toContain('<testsuite name="run" tests="1" failures="0" errors="0" skipped="0"');
    expect(grouped).toContain('<testsuite name="operations" tests="2" failures="0" errors="0" skipped="1" time="0.000">');
    expect(grouped).toContain('<testcase classname="plant-store.conform.operation" name="getA (GET /a)" time="0">');
    expect(grouped.match(/<testsuite /g)).toHaveLength(2);
  });
});
