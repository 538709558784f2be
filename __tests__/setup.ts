import "./setup-token-stacks";
import { Testing } from "cdktf";
import "cdktf/lib/testing/adapters/jest";
import { randomUUID } from "node:crypto";
import * as os from "node:os";
import * as path from "node:path";

Testing.setupJest();

// cdktf's Testing.app() makes an output folder per app in the system's temporary folder and never
// removes it: named in the run's temporary folder instead (removed when the run ends), and not made:
// Testing.synth writes nothing, and app.synth() makes the folder it writes (thousands of apps per
// run; one mkdtemp each cost about half a CPU-second).
const app = Testing.app.bind(Testing);
const outdirs = process.env.HCP_AZURE_TEST_TMPDIR ?? os.tmpdir();
Testing.app = (options = {}) => app(options.outdir ? options : { ...options, outdir: path.join(outdirs, `cdktf.outdir.${randomUUID()}`) });
