// The ES module entry: the same classes as index.cjs, which Jest's
// CommonJS mode and require() load.
import sandbox from './index.cjs';

export const { startSandbox, Sandbox, World, SandboxError } = sandbox;
