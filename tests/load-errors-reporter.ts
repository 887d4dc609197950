// A vitest reporter for `npm test`'s summary: the errors that belong to a file or a suite rather
// than to a test (a failing beforeAll or afterAll, an import that throws), which vitest's JSON
// report leaves out. Written as JSON { file: first lines of each error } to the path in
// VITEST_LOAD_ERRORS, so the closing summary can say why a file "did not load".
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

type SerializedError = { message?: string; name?: string; stack?: string };
const firstLines = (e: SerializedError) =>
  `${e.name && e.name !== 'Error' ? `${e.name}: ` : ''}${e.message ?? ''}`.split('\n').slice(0, 6).join(' | ').slice(0, 600);

export default class LoadErrorsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>) {
    const out = process.env.VITEST_LOAD_ERRORS;
    if (!out) return;
    const errors: Record<string, string[]> = {};
    for (const m of modules) {
      const found = [...m.errors(), ...[...m.children.allSuites()].flatMap((s) => s.errors())].map(firstLines);
      if (found.length) errors[m.moduleId] = found;
    }
    if (unhandled.length) errors['(unhandled)'] = unhandled.map(firstLines);
    writeFileSync(out, JSON.stringify(errors, null, 2));
  }
}
