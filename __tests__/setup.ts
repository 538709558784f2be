import "./setup-token-stacks";
import { Testing } from "cdktf";
import "cdktf/lib/testing/adapters/jest";
import { tempDir } from "./temp-dir";

Testing.setupJest();

// cdktf's Testing.app() makes an output folder per app in the system's temporary folder and never
// removes it: made in the run's temporary folder instead, removed when the run ends.
const app = Testing.app.bind(Testing);
Testing.app = (options = {}) => app(options.outdir ? options : { ...options, outdir: tempDir("cdktf.outdir.") });
