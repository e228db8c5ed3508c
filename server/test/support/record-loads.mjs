// Preloaded (NODE_OPTIONS=--import) into a server process by startup-modules.test.ts: every module URL the
// process loads, written to RECORD_LOADS_DIR/<pid>.txt when it exits (tsx's CLI runs the server in a child
// process, which inherits NODE_OPTIONS: each writes its own file).
import fs from 'node:fs';
import { registerHooks } from 'node:module';

const loaded = new Set();
registerHooks({
  load(url, context, nextLoad) {
    loaded.add(url);
    return nextLoad(url, context);
  },
});
process.on('exit', () => {
  fs.writeFileSync(`${process.env.RECORD_LOADS_DIR}/${process.pid}.txt`, [...loaded].join('\n'));
});
