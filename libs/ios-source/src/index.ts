export { normalizeXmlSource } from './normalize-xml';
export { roleOf } from './roles';
