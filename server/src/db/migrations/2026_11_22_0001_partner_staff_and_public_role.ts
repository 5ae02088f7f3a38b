import type { Kysely } from 'kysely';
import { PUBLIC_TOKEN_ROLE, run } from './helpers';

/**
 * Partner staff (users bound to an ISO) may be in the sales or finance department only and hold no
 * capabilities: admin, upload and import rights, the staff-only screens and every editing capability are for
 * internal staff. Existing accounts that break the rule lose those rights here (each change is written to the
 * audit log). The database enforces the rule too, so no code path can grant them back.
 *
 * Also the role that public-token routes run as: it has no grants on any table, so a route a stranger can call
 * with a token reads only what its own migration grants that role.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `insert into audit_log (actor_user_id, actor_email, action, subject, details)
     select null, 'system', 'user.partner_rule', u.email,
            jsonb_build_object('department', jsonb_build_array(u.department,
                 case when u.department in ('sales', 'finance') then u.department else 'sales' end),
                               'removedCapabilities', coalesce((select jsonb_agg(c.capability order by c.capability)
                                                           from user_capabilities c where c.user_id = u.id), '[]'::jsonb))
     from users u
     where u.partner_id is not null
       and (u.department not in ('sales', 'finance') or exists (select 1 from user_capabilities c where c.user_id = u.id))`,
    `update users set department = 'sales' where partner_id is not null and department not in ('sales', 'finance')`,
    `delete from user_capabilities c using users u where u.id = c.user_id and u.partner_id is not null`,
    `alter table users add constraint users_partner_staff_department
       check (partner_id is null or department in ('sales', 'finance'))`,
    `create function paydesk_partner_staff_capabilities() returns trigger language plpgsql as $$
     begin
       if tg_table_name = 'user_capabilities' then
         if exists (select 1 from users where id = new.user_id and partner_id is not null) then
           raise exception 'partner staff hold no capabilities' using errcode = 'check_violation';
         end if;
       elsif new.partner_id is not null and exists (select 1 from user_capabilities where user_id = new.id) then
         raise exception 'partner staff hold no capabilities' using errcode = 'check_violation';
       end if;
       return new;
     end $$`,
    `create trigger user_capabilities_partner_staff before insert or update on user_capabilities
       for each row execute function paydesk_partner_staff_capabilities()`,
    `create trigger users_partner_staff before insert or update of partner_id on users
       for each row execute function paydesk_partner_staff_capabilities()`,

    `do $$ begin
       if not exists (select 1 from pg_roles where rolname = '${PUBLIC_TOKEN_ROLE}') then
         create role ${PUBLIC_TOKEN_ROLE} nologin;
       end if;
     exception when duplicate_object or unique_violation then null;
     end $$`,
    `do $$ begin
       execute format('grant ${PUBLIC_TOKEN_ROLE} to %I', current_user);
     exception when others then null;
     end $$`,
    `grant usage on schema public to ${PUBLIC_TOKEN_ROLE}`,
  ]);
}
