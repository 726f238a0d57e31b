import { DatabaseNode, Node } from '../../core/graphql/node';
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs, PageType } from '../../core/pagination/page';
import { TextCost } from '../../core/graphql/text-cost';
import { CERTIFICATE_CAPS, CERTIFICATE_TEXT_MAX } from './pages-certificate';

/** The certificate of a domain (spec 2.7); the private key is never exposed. */
@ObjectType('PagesDomainCertificate')
export class PagesDomainCertificateType {
  @Field(() => String, { description: 'X.509 subject, e.g. /CN=ssl.domain.test' })
  @TextCost(CERTIFICATE_CAPS.pemLength)
  subject!: string;
  @Field(() => Boolean, { description: 'true before not-before or after not-after' }) expired!: boolean;
  @Field(() => Date, { description: 'not-after of the certificate' }) expiration!: Date;
  @Field(() => String, { description: 'PEM as stored, intermediates included' })
  @TextCost(CERTIFICATE_CAPS.pemLength)
  certificate!: string;
  @Field(() => String, { description: 'openssl x509 -text style dump' })
  @TextCost(CERTIFICATE_TEXT_MAX)
  certificateText!: string;
}

@ObjectType('PagesDomain', { implements: Node })
export class PagesDomainType extends DatabaseNode {
  @Field(() => String) domain!: string;
  @Field(() => String, { description: 'https://<domain> with a certificate, else http://<domain>' }) url!: string;
  @Field(() => Int) projectId!: number;
  @Field(() => PagesDomainCertificateType, { nullable: true, description: 'null without a certificate' })
  certificate!: PagesDomainCertificateType | null;
}

export const PagesDomainPage = PageType(PagesDomainType, 'PagesDomainConnection');

@ArgsType()
export class ProjectPagesDomainsArgs extends PageArgs {
  @Field(() => ID, { description: 'Project id or full path.' }) projectId!: string;
}

@InputType('UpdatePagesDomainInput', {
  description: 'Neither given: both are cleared; certificate alone keeps the stored key.',
})
export class UpdatePagesDomainInput {
  @Field(() => String, { nullable: true, description: 'PEM certificate, intermediates following' })
  certificate?: string;
  @Field(() => String, { nullable: true, description: 'PEM private key (RSA or EC)' }) key?: string;
}

@InputType('CreatePagesDomainInput', { description: 'certificate and key: both or neither.' })
export class CreatePagesDomainInput extends UpdatePagesDomainInput {
  @Field(() => String) domain!: string;
}
