import "./setup-token-stacks";
import { Testing } from "cdktf";
import "cdktf/lib/testing/adapters/jest";

Testing.setupJest();
