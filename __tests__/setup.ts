import { Testing } from "cdktf";
import "cdktf/lib/testing/adapters/jest";
import * as path from "node:path";

Testing.setupJest();

// As in every synth (scripts/run.js): no full stack trace per cdktf token, which under jest's
// source-mapped stack traces was most of each synth. Output is unchanged.
(require("../scripts/run.js") as { skipTokenCreationStacks(root: string, env: NodeJS.ProcessEnv): void }).skipTokenCreationStacks(path.resolve(__dirname, ".."), process.env);
