/* proto_command.c - the helpers every command translator uses (proto_command.h). */
#include "hack.h"
#include "func_tab.h"
#include "nnh_state.h"
#include "port_keys.h"
#include "proto_command.h"

int nnh_refuse(nnh_rejection *why, const char *code, const char *field, const char *message)
{
    why->code = code;
    why->field = field;
    why->message = message;
    return -1;
}

int nnh_ext_command_index(const char *name)
{
    int i;
    for (i = 0; extcmdlist[i].ef_txt; i++)
        if (!strcmp(extcmdlist[i].ef_txt, name)) return i;
    return -1;
}

void nnh_push_extended(const nnh_command *command)
{
    nnh.pending.ext_command = nnh_ext_command_index(command->extended);
    nnh_keys_push('#', NNH_FOR_ANY);
}
