import { GroupCustomAttribute } from '../../modules/groups/group-custom-attribute.entity';
import { Namespace } from '../../modules/groups/namespace.entity';
import { GroupMember, ProjectMember } from '../../modules/members/member.entity';
import { ProjectGroupLink } from '../../modules/projects/project-group-link.entity';
import { ProjectStar } from '../../modules/projects/project-star.entity';
import { Project } from '../../modules/projects/project.entity';
import { PersonalAccessToken } from '../../modules/tokens/personal-access-token.entity';
import { User } from '../../modules/users/user.entity';

export const ENTITIES = [User, Namespace, GroupCustomAttribute, Project, ProjectGroupLink, ProjectStar, GroupMember, ProjectMember, PersonalAccessToken];
