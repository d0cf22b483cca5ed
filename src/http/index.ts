/** HTTP plumbing shared by the reference server and the mock's front: the request gate and the Error catalogue. */
export * from './errors.js';
export * from './gate.js';
