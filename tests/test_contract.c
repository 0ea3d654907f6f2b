/* tests/test_contract.c: the same checks over every registered kind,
 * through the vtable only. (Grows with each kind.) */
#include "check.h"
#include "../common/filter.h"

TEST(every_kind_is_registered_by_name)
{
    for (size_t i = 0; fk_ops_at(i); i++)
        CHECK(fk_ops_find(fk_ops_at(i)->name) == fk_ops_at(i));
    CHECK(fk_ops_find("bloom") != NULL);
    CHECK(fk_ops_find("no-such-kind") == NULL);
    CHECK(fk_ops_find(NULL) == NULL);
}

int main(void)
{
    RUN(every_kind_is_registered_by_name);
    return check_report();
}
