/**
 * The users module's public face: the only file that other modules, app.ts and other modules' tests import
 * (docs/decisions/0012-module-boundaries.md). Team members, roles and funnel access (the policy's actor). Imports
 * funnels and tenants; auth's sessions come in as a port.
 */
export { usersPlugin } from './users.plugin.ts';
export {
  actorOf,
  actorOfSession,
  countActiveUsers,
  countAllUsers,
  createUser,
  findUser,
  findUserByEmail,
  findUserOfAnyTenant,
  listAllUsers,
  realtimeFunnelAccess,
  recordLogin,
  replaceFunnelAccess,
  setPassword,
  sessionUserOf,
  setUserActive,
  toSessionUser,
  userCountsByTenant,
  type UserRow,
} from './users.service.ts';
