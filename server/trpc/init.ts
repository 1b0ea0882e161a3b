import { initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import superjson from 'superjson';
import { z } from 'zod';
import { getMemberSession, partnerIdsOf } from '@/server/auth/session';
import { type AuditActor, partnerUserActor, staffActor } from '@/server/modules/audit';
import { noteDatabaseFault } from '@/server/lib/db-health';
import { AppError, clientErrorFrom, type ErrorCode, unavailableFrom } from '@/server/lib/errors';
import { type PartnerPermission, partnerRoleRefusal, type Permission, roleRefusal } from '@/server/lib/staff-roles';
import { isPartnerUser, type PartnerUserSession, type StaffSession } from '@/server/modules/staff';

/**
 * Per-request context: the signed-in member of Encore's staff, or the signed-in user of a partner (at most one
 * of the two). Same for HTTP calls and server components.
 */
export async function createTRPCContext(): Promise<{
  staff: StaffSession | null;
  partnerUser?: PartnerUserSession | null;
}> {
  const member = await getMemberSession();
  if (!member) return { staff: null, partnerUser: null };
  return isPartnerUser(member) ? { staff: null, partnerUser: member } : { staff: member, partnerUser: null };
}
export type TRPCContext = Awaited<ReturnType<typeof createTRPCContext>>;

/** Messages per top-level input field, e.g. { name: ["Name is required"] }, for forms to show. */
function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '');
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/** The same, from the field details of an AppError a module threw (checks zod cannot make, e.g. URL lookups). */
function fieldErrorsOfDetails(details: AppError['details']): Record<string, string[]> | null {
  if (!details?.length) return null;
  const out: Record<string, string[]> = {};
  for (const d of details) (out[d.path.split(/[.[]/)[0]] ??= []).push(d.message);
  return out;
}

/**
 * What each procedure declares: the staff permission it needs (server/lib/staff-roles.ts), or `public`; and,
 * for a procedure open to partners' users, the partner permission it needs of them.
 */
export interface ProcedureMeta {
  permission: Permission | 'public';
  partnerPermission?: PartnerPermission;
  /** How a partner user's calls are kept to their partner: by the input's partnerId, or by the resolver itself. */
  partnerScope?: 'input' | 'resolver';
}

const t = initTRPC
  .context<TRPCContext>()
  .meta<ProcedureMeta>()
  .create({
    transformer: superjson,
    errorFormatter({ shape, error }) {
      // Unexpected failures keep their detail in the server log, not in the browser.
      const message =
        error.code === 'INTERNAL_SERVER_ERROR' ? 'Something went wrong. Please try again.' : shape.message;
      return {
        ...shape,
        message,
        data: {
          ...shape.data,
          // Field-level messages for forms when input validation fails.
          fieldErrors:
            error.cause instanceof z.ZodError
              ? fieldErrorsOf(error.cause)
              : isAppError(error.cause)
                ? fieldErrorsOfDetails(error.cause.details)
                : null,
        },
      };
    },
  });

const TRPC_CODE_OF: Partial<Record<ErrorCode, TRPC_ERROR_CODE_KEY>> = {
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  BAD_REQUEST: 'BAD_REQUEST',
  VALIDATION_FAILED: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  RATE_LIMITED: 'TOO_MANY_REQUESTS',
  BAD_GATEWAY: 'BAD_GATEWAY',
  UNAVAILABLE: 'SERVICE_UNAVAILABLE',
};

function isAppError(err: unknown): err is AppError {
  // The name check covers a second copy of the class in another server bundle.
  return err instanceof AppError || (err instanceof Error && err.name === 'AppError' && 'code' in err);
}

/**
 * The one place module errors become tRPC errors, so callers over HTTP and server components see the
 * same codes (NOT_FOUND stays NOT_FOUND rather than turning into an internal error). A value PostgreSQL
 * refused (a NUL in a search, say) is the caller's bad input: a 400, not an internal error and a log line;
 * a database that cannot be reached is SERVICE_UNAVAILABLE (503), which the dashboard shows as such.
 */
const mapAppErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  const cause = isAppError(result.error.cause)
    ? result.error.cause
    : (clientErrorFrom(result.error.cause) ?? unavailableFrom(result.error.cause));
  if (cause?.code === 'UNAVAILABLE') noteDatabaseFault(result.error.cause);
  const code = cause && TRPC_CODE_OF[cause.code];
  if (cause && code) throw new TRPCError({ code, message: cause.message, cause });
  return result;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

const anyone = t.procedure.use(mapAppErrors);

/** Only for what a person does before they can sign in: first-run setup, accepting an invitation. */
export const publicProcedure = anyone.meta({ permission: 'public' });

/**
 * Everything else: a signed-in staff member (401 otherwise) whose role holds `permission` (403 otherwise),
 * checked before the input is read. The only other way to build a procedure: one without a declared
 * permission does not compile.
 */
export function staffProcedure(permission: Permission) {
  return anyone.meta({ permission }).use(({ ctx, next }) => {
    if (ctx.partnerUser) throw forbidden("This is Encore staff's: a partner's user may not do it.");
    return next({ ctx: { staff: staffHolding(ctx.staff, permission) } });
  });
}

const forbidden = (message: string) => new TRPCError({ code: 'FORBIDDEN', message });

/** The signed-in staff member when their role holds `permission`; else 401 (nobody) or 403. */
function staffHolding(staff: StaffSession | null, permission: Permission): StaffSession {
  if (!staff) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in to continue' });
  const refusal = roleRefusal(staff.role, permission);
  if (refusal) throw forbidden(refusal);
  return staff;
}

/** Who took an action, as the audit log records it. */
export type Actor = { kind: 'staff'; member: StaffSession } | { kind: 'partner_user'; member: PartnerUserSession };

/**
 * A procedure open to partners' users too: Encore's staff need `permission`; a partner's user needs
 * `partnerPermission` of their partner role, and the input's `partnerId` must be their partner or its test
 * twin (`partnerIds`), else the thing does not exist for them (`NOT_FOUND`: they learn nothing of another
 * partner). Checked before the input is otherwise read. `ctx.actor` says who acts. With `partnerScope`
 * `resolver` (a list with no partnerId, `partners.list`), the resolver keeps a partner user to their partner.
 */
export function partnerProcedure(
  permission: Permission,
  partnerPermission: PartnerPermission,
  partnerScope: 'input' | 'resolver' = 'input',
) {
  return anyone.meta({ permission, partnerPermission, partnerScope }).use(async ({ ctx, next, getRawInput }) => {
    if (ctx.partnerUser) {
      const user = ctx.partnerUser;
      const refusal = partnerRoleRefusal(user.role, partnerPermission);
      if (refusal) throw forbidden(refusal);
      if (partnerScope === 'input') {
        // The partner the call names (`testPartnerId` on the test data's wipe).
        const input = (await getRawInput()) as { partnerId?: unknown; testPartnerId?: unknown } | undefined;
        const asked = input?.partnerId ?? input?.testPartnerId;
        if (typeof asked !== 'string' || !(await partnerIdsOf(user)).includes(asked)) {
          throw new TRPCError({ code: 'NOT_FOUND', message: 'Partner not found' });
        }
      }
      return next({ ctx: { actor: { kind: 'partner_user', member: user } as Actor } });
    }
    return next({ ctx: { actor: { kind: 'staff', member: staffHolding(ctx.staff, permission) } as Actor } });
  });
}

/** Who acted, for the audit log. */
export function auditActorOf(actor: Actor): AuditActor {
  return actor.kind === 'staff' ? staffActor(actor.member) : partnerUserActor(actor.member);
}
