import { bool, int, shape, str, time } from '../../core/wire/wire';

/** GitLab 10.3's Entities::Hook, then later GitLab's alert_status and disabled_until. */
export const SystemHookWire = shape('SystemHook', {
  id: int(),
  url: str(),
  created_at: time(),
  push_events: bool(),
  tag_push_events: bool(),
  repository_update_events: bool(),
  enable_ssl_verification: bool(),
  alert_status: str(),
  disabled_until: time({ nullable: true }),
});

/** The test payload GET /hooks/:id sends and answers (GitLab 10.3). */
export const SystemHookTestWire = shape('SystemHookTestData', {
  event_name: str(),
  name: str(),
  path: str(),
  project_id: int(),
  owner_name: str(),
  owner_email: str(),
});

/** One delivery attempt (later GitLab's WebHookLog names). */
export const SystemHookLogWire = shape('SystemHookLog', {
  id: int(),
  trigger: str(),
  event_name: str({ nullable: true }),
  url: str(),
  response_status: int({ nullable: true }),
  response_body: str(),
  execution_duration: int(),
  internal_error_message: str({ nullable: true }),
  created_at: time(),
});
