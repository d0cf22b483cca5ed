/**
 * JUnit XML, the format Jenkins, GitLab and GitHub test reporters read: one <testsuites> holding
 * one <testsuite> of test cases, each passed, failed, skipped, in error, or passed with text in
 * its <system-out> (a warning). `plant-store conform --junit` and `plant-store proxy --junit`
 * write their checks through it; what a case says is theirs.
 */

/** XML 1.0 text: escaped, and characters XML cannot carry at all written as \uXXXX. */
export function xml(text: string): string {
  return (
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      // eslint-disable-next-line no-control-regex -- XML 1.0, section 2.2: these code points are not allowed
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  );
}

/** How one test case ended. */
export type JUnitOutcome =
  | { readonly kind: 'passed' }
  | { readonly kind: 'failure'; readonly message: string; readonly type: string; readonly text: string }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'skipped'; readonly message: string }
  /** Passed, with something to read (a warning). */
  | { readonly kind: 'output'; readonly text: string };

export interface JUnitCase {
  readonly name: string;
  readonly outcome: JUnitOutcome;
}

/** A further <testsuite> of the same document, its cases of their own classname (`plant-store.<tool>.<word>`). */
export interface JUnitGroup {
  readonly name: string;
  readonly word: string;
  readonly cases: readonly JUnitCase[];
}

export interface JUnitSuite {
  /** The <testsuites> name, and the classname of every case (`plant-store.<word>`). */
  readonly tool: string;
  /** The <testsuite> name: what was tested. */
  readonly name: string;
  readonly durationMs: number;
  readonly properties: readonly (readonly [string, string | number | boolean])[];
  readonly cases: readonly JUnitCase[];
  /** Further suites after the first (conform's row per operation). */
  readonly groups?: readonly JUnitGroup[];
}

function testCase(classname: string, { name, outcome }: JUnitCase): string {
  const open = `    <testcase classname="${xml(classname)}" name="${xml(name)}" time="0"`;
  const inner = (body: string): string => `${open}>\n      ${body}\n    </testcase>`;
  switch (outcome.kind) {
    case 'passed':
      return `${open}/>`;
    case 'failure':
      return inner(`<failure message="${xml(outcome.message)}" type="${xml(outcome.type)}">${xml(outcome.text)}</failure>`);
    case 'error':
      return inner(`<error message="${xml(outcome.message)}"/>`);
    case 'skipped':
      return inner(`<skipped message="${xml(outcome.message)}"/>`);
    case 'output':
      return inner(`<system-out>${xml(outcome.text)}</system-out>`);
  }
}

type Counts = readonly [tests: number, failures: number, errors: number, skipped: number];

function countsOf(cases: readonly JUnitCase[]): Counts {
  const count = (kind: JUnitOutcome['kind']): number => cases.filter((c) => c.outcome.kind === kind).length;
  return [cases.length, count('failure'), count('error'), count('skipped')];
}

function testSuite(name: string, classname: string, cases: readonly JUnitCase[], time: string, properties: JUnitSuite['properties'] | undefined): string[] {
  const [tests, failures, errors, skipped] = countsOf(cases);
  return [
    `  <testsuite name="${xml(name)}" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${time}">`,
    ...(properties === undefined ? [] : ['    <properties>', ...properties.map(([key, value]) => `      <property name="${xml(key)}" value="${xml(String(value))}"/>`), '    </properties>']),
    ...cases.map((c) => testCase(classname, c)),
    '  </testsuite>',
  ];
}

/** The document, with the counts of each kind of outcome computed from the cases (of every suite, on <testsuites>). */
export function junitXml(suite: JUnitSuite): string {
  const groups = suite.groups ?? [];
  const [tests, failures, errors] = countsOf([...suite.cases, ...groups.flatMap((g) => g.cases)]);
  const time = (suite.durationMs / 1000).toFixed(3);
  const classname = `plant-store.${suite.tool}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="plant-store ${xml(suite.tool)}" tests="${tests}" failures="${failures}" errors="${errors}" time="${time}">`,
    ...testSuite(suite.name, classname, suite.cases, time, suite.properties),
    ...groups.flatMap((group) => testSuite(group.name, `${classname}.${group.word}`, group.cases, '0.000', undefined)),
    '</testsuites>',
    '',
  ].join('\n');
}
