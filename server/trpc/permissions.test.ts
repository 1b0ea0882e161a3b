import fs from 'node:fs';
import path from 'node:path';
import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/db';
import {
  may,
  mayGiveRole,
  PARTNER_PERMISSIONS,
  PARTNER_ROLE_TABLE,
  PARTNER_ROLES,
  partnerMay,
  type Permission,
  PERMISSIONS,
  ROLE_TABLE,
  STAFF_ROLES,
} from '@/server/lib/staff-roles';
import { createPartnerCredentials } from '@/server/modules/partners';
import { createCallerFactory, type ProcedureMeta } from './init';
import { appRouter } from './router';

const createCaller = createCallerFactory(appRouter);
const procedures = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: { meta?: ProcedureMeta } }>,
);

/** The procedure at a dotted path of a caller, called with an empty input. */
async function codeOf(caller: unknown, dotted: string, input: unknown = {}): Promise<string> {
  const fn = dotted.split('.').reduce((at, key) => (at as Record<string, unknown>)[key], caller) as (
    input: unknown,
  ) => Promise<unknown>;
  try {
    await fn(input);
    return 'OK';
  } catch (err) {
    return err instanceof TRPCError ? err.code : `thrown: ${String(err)}`;
  }
}

describe('who may call each dashboard procedure', () => {
  it('every procedure declares one permission of the table', () => {
    expect(procedures.length).toBeGreaterThan(90);
    const undeclared = procedures.filter(([, p]) => {
      const { permission, partnerPermission } = p._def.meta ?? {};
      if (partnerPermission !== undefined && !(partnerPermission in PARTNER_PERMISSIONS)) return true;
      return permission !== 'public' && !(permission && permission in PERMISSIONS);
    });
    expect(undeclared.map(([name]) => name)).toEqual([]);
    // What may be called without signing in is exactly what a person does before they can.
    const open = procedures.filter(([, p]) => p._def.meta?.permission === 'public').map(([name]) => name);
    expect(open.sort()).toEqual(['partnerUsers.acceptInvitation', 'setup.createFirstAdmin', 'staff.acceptInvitation']);
  });

  it('walks the whole router: every procedure × every role is allowed or FORBIDDEN as its permission says', async () => {
    const wrong: string[] = [];
    for (const role of STAFF_ROLES) {
      const caller = createCaller({ staff: { id: `stf_walk_${role}`, email: `${role}@walk.test`, name: role, role } });
      for (const [name, p] of procedures) {
        const permission = p._def.meta!.permission;
        if (permission === 'public') continue;
        const code = await codeOf(caller, name);
        const allowed = may(role, permission);
        // Allowed: the call goes past the role check (to the input's validation, or to its answer).
        if (allowed ? code === 'FORBIDDEN' || code === 'UNAUTHORIZED' : code !== 'FORBIDDEN') {
          wrong.push(`${role} ${name} (${permission}): ${code}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('walks it as every partner role: staff-only FORBIDDEN, its own partner as its role says, another NOT_FOUND', async () => {
    const own = await createPartnerCredentials(`Walk own ${Date.now()}`, getDb());
    const other = await createPartnerCredentials(`Walk other ${Date.now()}`, getDb());
    const wrong: string[] = [];
    for (const role of PARTNER_ROLES) {
      const caller = createCaller({
        staff: null,
        partnerUser: {
          id: `stf_walk_p_${role}`,
          email: `${role}@partner.walk.test`,
          name: role,
          role,
          partnerId: own.partnerId,
        },
      });
      for (const [name, p] of procedures) {
        const { permission, partnerPermission, partnerScope } = p._def.meta!;
        if (permission === 'public') continue;
        const code = await codeOf(caller, name, { partnerId: own.partnerId });
        if (!partnerPermission) {
          if (code !== 'FORBIDDEN') wrong.push(`${role} ${name} (staff only): ${code}`);
          continue;
        }
        const allowed = partnerMay(role, partnerPermission);
        if (allowed ? code === 'FORBIDDEN' || code === 'UNAUTHORIZED' : code !== 'FORBIDDEN') {
          wrong.push(`${role} ${name} (${partnerPermission}): ${code}`);
        }
        // Another partner's id, and its test twin's: as if it did not exist.
        if (allowed && partnerScope === 'input') {
          for (const partnerId of [other.partnerId, other.testPartnerId]) {
            const elsewhere = await codeOf(caller, name, { partnerId, testPartnerId: partnerId });
            if (elsewhere !== 'NOT_FOUND') wrong.push(`${role} ${name} on another partner: ${elsewhere}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('turns away every staff procedure without a session', async () => {
    const anonymous = createCaller({ staff: null });
    const codes = new Set<string>();
    for (const [name, p] of procedures) {
      if (p._def.meta!.permission !== 'public') codes.add(await codeOf(anonymous, name));
    }
    expect([...codes]).toEqual(['UNAUTHORIZED']);
  });

  it('lets only an admin give roles, never above their own', () => {
    for (const role of STAFF_ROLES) {
      for (const given of STAFF_ROLES) expect(mayGiveRole(role, given)).toBe(role === 'admin');
    }
    const holders = (p: Permission) => STAFF_ROLES.filter((r) => may(r, p));
    expect(holders('admin')).toEqual(['admin']);
    expect(holders('money')).toEqual(['admin', 'finance']);
    expect(holders('support')).toEqual(['admin', 'support']);
    expect(holders('read')).toEqual([...STAFF_ROLES]);
  });

  it('is the table docs/security.md gives, permission by permission and procedure by procedure', () => {
    const doc = fs.readFileSync(path.join(process.cwd(), 'docs', 'security.md'), 'utf8');
    /** The rows of the table whose header line is `header`, their cells trimmed (prettier pads them). */
    const table = (header: string) => {
      const lines = doc.split('\n');
      const start = lines.findIndex((l) => l.replace(/\s+/g, ' ').startsWith(header));
      expect(start, header).toBeGreaterThan(-1);
      const rows = [];
      for (let i = start + 2; lines[i]?.startsWith('|'); i++) {
        rows.push(
          lines[i]
            .split('|')
            .slice(1, -1)
            .map((cell) => cell.trim()),
        );
      }
      return rows;
    };
    expect(table('| Permission | Allows | Roles |')).toEqual(
      ROLE_TABLE.map((r) => [`\`${r.permission}\``, r.what, r.roles.join(', ')]),
    );
    expect(table('| Partner permission | Allows | Roles |')).toEqual(
      PARTNER_ROLE_TABLE.map((r) => [`\`${r.permission}\``, r.what, r.roles.join(', ')]),
    );
    const documented = table('| Procedure | Staff | Partner users |').map((cells) =>
      cells.map((c) => c.replaceAll('`', '')),
    );
    const declared = procedures.map(([name, p]) => [
      name,
      p._def.meta!.permission,
      p._def.meta!.partnerPermission ?? '—',
    ]);
    expect(documented.sort()).toEqual(declared.sort());
  });
});
