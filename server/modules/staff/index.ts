/** Staff: dashboard users, invitations and sign-in. Owns the tables of db/schema/staff.ts. */
export * from './schemas';
export * from './invitations';
export * from './members';
export * from './sessions';
export * from './sign-in';
