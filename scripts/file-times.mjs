// A node:test reporter (scripts/run-tests.mjs adds it): per test file, the durations of its
// top-level tests summed, written as one JSON object { file: seconds } at the end of the run.
export default async function* fileTimes(source) {
  const perFile = {}
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue
    const { data } = event
    if (data.nesting !== 0 || !data.file) continue
    perFile[data.file] = (perFile[data.file] ?? 0) + (data.details?.duration_ms ?? 0) / 1000
  }
  yield `${JSON.stringify(perFile)}\n`
}
