export * from './certificates';
export * from './https-receiver';
export { sendInChild, type ChildSend } from './send-in-child';
